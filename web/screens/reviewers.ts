import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { FieldDef, ListResource } from '#contract';
import { fetchHistory } from '../api/audit.js';
import { resourceKeys, type Row } from '../engine/shared/queries.js';
import { auditActorText, auditRefused } from '../engine/record/audit-wording.js';
import type { RowAnnotation } from '../engine/shared/types.js';

/** The review actions whose author is the reviewer. */
const REVIEWS = new Set(['approve', 'reject']);
/**
 * The entries that are a review: the call itself (`change`), or a second approver's confirmation
 * of a held one. A `hold` is only the first approver's request and a `decline` sends nothing: the
 * application is not reviewed until it is settled.
 */
const REVIEWED: ReadonlySet<string> = new Set(['change', 'confirm']);

const REVIEWED_BY: FieldDef = { key: 'reviewedBy', kind: 'text', readOnly: true, column: true };

/**
 * Who reviewed each withdrawal on screen: the author of its latest approve or reject that went
 * through, from the gateway's audit trail (the backend's answer does not say). A review made
 * before the trail existed, or straight at the backend, shows none.
 */
function useReviewers(resource: ListResource, rows: readonly Row[]): ReadonlyMap<string, string> {
  const ids = useMemo(() => rows.map((r) => String(r.id)), [rows]);
  const query = useQuery({
    // Under the resource's key: an approve or reject on the screen fetches it again.
    queryKey: [...resourceKeys.all(resource), 'reviewers', ids],
    queryFn: ({ signal }) => fetchHistory(resource.id, ids, signal),
    enabled: ids.length > 0,
  });
  return useMemo(() => {
    const reviewers = new Map<string, string>();
    // Newest first: the first review of a record that went through is its latest.
    for (const entry of query.data ?? []) {
      if (!entry.action || !REVIEWS.has(entry.action) || !REVIEWED.has(entry.kind) || auditRefused(entry)) continue;
      for (const target of entry.targets) if (!reviewers.has(target)) reviewers.set(target, auditActorText(entry));
    }
    return reviewers;
  }, [query.data]);
}

export const reviewedBy: RowAnnotation = { field: REVIEWED_BY, useValues: useReviewers };
