import { useEffect, useRef, useState } from 'react';
import { RECORD_ID_FILTER, type ListResource } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';
import { recordPath } from '../../lib/record-nav.js';
import { fetchList, type Row } from '../shared/queries.js';
import { recordName } from './record-summary.js';
import { valueText } from '../shared/value-cell.js';

/**
 * The header search's records: what was typed, sent as the keyword of each searchable list (the
 * backend matches it against the resource's keyword fields), the answers ranked and named.
 */

/** Records shown per resource; the list itself, filtered by the keyword, has the rest. */
export const RECORD_SEARCH_ROWS = 5;
/**
 * A keystroke closer than this to the one before (a key held down, a fast typist's burst) while
 * the search for the text before is still awaited waits until the burst ends, and one search goes
 * out for it. A keystroke after a pause, or once the last answer is in, searches at once: waiting
 * would only add this much to its answer, and there is no call under way to pile onto. The
 * answer still awaited for an older text is cancelled.
 */
export const RECORD_SEARCH_DEBOUNCE_MS = 50;

/**
 * How long to wait before searching a text changed at `now`, the one before having changed at
 * `previous`; `awaiting`: a search for an earlier text is still under way, or waiting to start.
 */
export function searchDelay(now: number, previous: number, awaiting: boolean): number {
  return awaiting && now - previous < RECORD_SEARCH_DEBOUNCE_MS ? RECORD_SEARCH_DEBOUNCE_MS : 0;
}

/** A resource the header search looks in, at the list screen its records' pages belong to. */
export interface SearchSource {
  resource: ListResource;
  listPath: string;
}

/** The keyword a record search sends for what was typed; null when it is too short to name a record. */
export function recordKeyword(text: string): string | null {
  const q = text.trim();
  // Digits are an id or a phone number, meaningful however short; one letter matches half the users.
  if (/^\d+$/.test(q)) return q;
  return q.length >= 2 ? q : null;
}

export interface RecordHit {
  id: string;
  /** The record's page. */
  path: string;
  /** What names it (an account, a group's name, an applicant). */
  name: string;
  /** Its other searched values ("#10023 · +8613800000000 · nickname"), so two namesakes can be told apart. */
  detail: string;
  /** The row as the list answered it: the record's page draws it at once when opened. */
  row: Row;
}

/** How closely a record matches: a keyword field equal to the text (an id or a phone typed in full), one starting with it, or one containing it. */
function closeness(row: Row, fields: readonly string[], needle: string): number {
  let best = 2;
  for (const key of fields) {
    const value = row[key];
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const text = String(value).toLocaleLowerCase();
    if (text === needle) return 0;
    if (text.startsWith(needle)) best = 1;
  }
  return best;
}

/**
 * The answered rows as hits, closest first (the backend's own order among equals), each naming its
 * record and showing the other fields the keyword searches.
 */
export function rankHits(
  rows: readonly Row[],
  resource: ListResource,
  listPath: string,
  keyword: string,
  t: LabelT,
): RecordHit[] {
  const needle = keyword.trim().toLocaleLowerCase();
  const fields = resource.keywordFields;
  const byKey = new Map(resource.fields.map((f) => [f.key, f]));
  const nameKey = resource.recordFields?.[0];
  return rows
    .map((row, index) => ({ row, index, rank: closeness(row, fields, needle) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .flatMap(({ row }) => {
      const path = recordPath(listPath, row.id);
      if (!path) return [];
      const detail = fields
        .filter((key) => key !== nameKey)
        .map((key) => {
          if (key === 'id') return `#${String(row.id)}`;
          const field = byKey.get(key);
          return field ? valueText(t, field, row[key]) : String(row[key] ?? '');
        })
        .filter((text) => text !== '')
        .join(' · ');
      return [{ id: String(row.id), path, name: recordName(t, resource, row), detail, row }];
    });
}

/**
 * One resource's rows for a keyword. Digits may be an id: the record with that id is asked for
 * too (the list's id filter) and put first, since among the records merely containing those
 * digits (phones, other ids) it might not be in the first few the backend answers.
 */
async function searchOne(
  resource: ListResource,
  keyword: string,
  signal: AbortSignal,
): Promise<{ list: Row[]; total: number }> {
  const byKeyword = fetchList(resource, { keyword, pageNum: 1, pageSize: RECORD_SEARCH_ROWS }, signal, true);
  if (!/^\d+$/.test(keyword)) return byKeyword;
  const [page, byId] = await Promise.all([
    byKeyword,
    fetchList(resource, { [RECORD_ID_FILTER]: keyword, pageSize: 1 }, signal, true),
  ]);
  const exact = byId.list.filter((row) => String(row.id) === keyword);
  if (exact.length === 0) return page;
  const rest = page.list.filter((row) => String(row.id) !== keyword);
  return { list: [...exact, ...rest].slice(0, RECORD_SEARCH_ROWS), total: Math.max(page.total, rest.length + 1) };
}

/**
 * One resource's answer. While the answer to a new keyword is awaited it keeps the rows of the
 * last one (`keyword` says which), so the list does not empty and refill on every keystroke.
 */
export interface SourceAnswer {
  status: 'loading' | 'error' | 'done';
  /** The keyword `rows` and `total` answer. */
  keyword: string;
  rows: readonly Row[];
  total: number;
}

export interface RecordSearch {
  /** The keyword searched last; null: nothing searched. */
  keyword: string | null;
  /** By resource id. */
  answers: Readonly<Record<string, SourceAnswer>>;
}

const NOTHING: RecordSearch = { keyword: null, answers: {} };

/**
 * Searches every source for `text`, bursts of keys debounced; a newer text cancels the calls still under way for
 * the older one, so a slow answer never replaces a newer one. Failures are quiet: the search says
 * which resource it could not search, in place.
 */
export function useRecordSearch(sources: readonly SearchSource[], text: string): RecordSearch {
  const keyword = recordKeyword(text);
  const [search, setSearch] = useState<RecordSearch>(NOTHING);
  const changedAt = useRef(Number.NEGATIVE_INFINITY);
  // A search is waiting out a burst or awaiting answers. A newer text cancels that search's calls
  // but leaves this set: the burst goes on until a search is answered whole.
  const awaiting = useRef(false);

  useEffect(() => {
    const now = performance.now();
    const delay = searchDelay(now, changedAt.current, awaiting.current);
    changedAt.current = now;
    if (keyword === null || sources.length === 0) {
      awaiting.current = false;
      setSearch(NOTHING);
      return;
    }
    awaiting.current = true;
    const controller = new AbortController();
    let unanswered = sources.length;
    const answer = (id: string, value: SourceAnswer) => {
      unanswered -= 1;
      if (unanswered === 0) awaiting.current = false;
      setSearch((current) =>
        current.keyword === keyword ? { keyword, answers: { ...current.answers, [id]: value } } : current,
      );
    };
    const start = () => {
      setSearch((current) => ({
        keyword,
        answers: Object.fromEntries(
          sources.map(({ resource }) => {
            const last = current.answers[resource.id];
            return [
              resource.id,
              last?.status === 'done'
                ? { ...last, status: 'loading' }
                : { status: 'loading', keyword, rows: [], total: 0 },
            ];
          }),
        ),
      }));
      for (const { resource } of sources) {
        searchOne(resource, keyword, controller.signal).then(
          (page) => {
            if (!controller.signal.aborted)
              answer(resource.id, { status: 'done', keyword, rows: page.list, total: page.total });
          },
          () => {
            if (!controller.signal.aborted) answer(resource.id, { status: 'error', keyword, rows: [], total: 0 });
          },
        );
      }
    };
    const timer = delay > 0 ? setTimeout(start, delay) : null;
    if (timer === null) start();
    return () => {
      if (timer !== null) clearTimeout(timer);
      controller.abort();
    };
  }, [keyword, sources]);

  return search;
}
