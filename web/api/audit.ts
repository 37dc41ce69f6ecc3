import { GATEWAY_PATHS } from '#contract/gateway';
import type { AuditEntry, AuditPage, AuditQueryParams } from '#contract/audit';
import { api, buildUrl } from './client.js';

/** The gateway's audit trail: the whole trail (the operation log's permission) and the history of records. */

export type AuditFilters = Omit<AuditQueryParams, 'pageNum' | 'pageSize' | 'format'>;

const EMPTY: AuditPage = { list: [], total: 0 };

export async function fetchAuditPage(query: AuditQueryParams, signal?: AbortSignal): Promise<AuditPage> {
  return (await api.get<AuditPage>(GATEWAY_PATHS.audit, { ...query }, { signal })).data ?? EMPTY;
}

/** The address of the filtered trail as a CSV file: the browser downloads it as the gateway writes it. */
export function auditCsvUrl(filters: AuditFilters): string {
  return buildUrl(GATEWAY_PATHS.audit, { ...filters, format: 'csv' });
}

/** What happened to these records of a resource, newest first; quiet: a screen shows its own message. */
export async function fetchHistory(
  resource: string,
  targets: readonly (string | number)[],
  signal?: AbortSignal,
): Promise<AuditEntry[]> {
  if (targets.length === 0) return [];
  const answer = await api.get<AuditPage>(
    GATEWAY_PATHS.auditHistory,
    { resource, targets: targets.map(String).join(',') },
    { signal, quiet: true },
  );
  return answer.data?.list ?? [];
}

/** The audit trail screen's address (the route table names it too), for links from other screens. */
export const AUDIT_TRAIL_PATH = '/system/audit';

/** That screen filtered by one administrator: their activity. */
export function activityPath(account: string): string {
  return buildUrl(AUDIT_TRAIL_PATH, { actor: account });
}
