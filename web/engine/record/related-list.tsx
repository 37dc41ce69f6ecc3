import { useId, useMemo, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import type { LabelT } from '../../i18n/resources/index.js';
import { recordPath } from '../../lib/record-nav.js';
import { useNarrow } from '../../ui/use-narrow.js';
import { fieldLabel, resourceTitle } from '../shared/labels.js';
import { Empty, LoadFailed, Loading } from '../shared/states.js';
import { listQueryOptions, type Row } from '../shared/queries.js';
import { RecordLink } from './record-link.js';
import { RELATED_ROWS, relatedColumns, relatedListUrl, unfilteredRows, type RelatedList } from './related.js';
import { ValueView } from '../shared/value-cell.js';

const NUMERIC = new Set(['money', 'number', 'bytes']);

/**
 * One related list of a record's page: the first rows of another resource's list filtered by the
 * record, each linking to its own page, and "See all" opening that list with the same filters.
 */
export function RelatedListSection({
  related,
  filters,
  listPath,
  t,
}: {
  related: RelatedList;
  filters: Record<string, string>;
  listPath: string;
  t: LabelT;
}) {
  const { resource } = related;
  const headingId = useId();
  const narrow = useNarrow();
  const params = useMemo(
    () => ({ pageNum: 1, pageSize: RELATED_ROWS, sort: resource.defaultSort, ...filters }),
    [resource, filters],
  );
  const query = useQuery(listQueryOptions(resource, params));
  const columns = useMemo(() => relatedColumns(resource, Object.keys(filters)), [resource, filters]);
  const rows = query.data?.list ?? [];
  const total = query.data?.total ?? 0;
  const stray = unfilteredRows(rows, filters);
  const title = resourceTitle(t, resource.id);
  const allUrl = relatedListUrl(listPath, resource, filters);

  const link = (row: Row, body: ReactNode) => {
    const href = recordPath(listPath, row.id);
    return href ? (
      <RecordLink href={href} onOpen={() => navigate(href)}>
        {body}
      </RecordLink>
    ) : (
      body
    );
  };

  let body;
  if (query.isPending) {
    body = <Loading inline />;
  } else if (query.isError && !query.data) {
    body = <LoadFailed inline error={query.error} onRetry={() => void query.refetch()} />;
  } else if (stray.length > 0) {
    // The backend ignored the filter: its rows are everyone's, not this record's.
    body = (
      <p role="note" className="py-3 text-sm text-amber-800" data-testid="related-unfiltered">
        {t('record.relatedUnfiltered')}
      </p>
    );
  } else if (rows.length === 0) {
    body = <Empty inline>{t('record.relatedEmpty')}</Empty>;
  } else if (narrow) {
    body = (
      <ul className="flex flex-col divide-y divide-slate-100">
        {rows.map((row) => (
          <li key={String(row.id)} className="py-2 text-sm" data-row-id={String(row.id)}>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
              {columns.map((f) => (
                <div key={f.key} className="contents">
                  <dt className="text-slate-500">{fieldLabel(t, f.key)}</dt>
                  <dd className="wrap-anywhere text-slate-800" data-col={f.key}>
                    {f.key === 'id' ? (
                      link(row, `#${String(row.id)}`)
                    ) : (
                      <ValueView t={t} field={f} value={row[f.key]} />
                    )}
                  </dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    );
  } else {
    body = (
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="text-slate-500">
            <tr>
              {columns.map((f) => (
                <th
                  key={f.key}
                  scope="col"
                  className={`px-2 py-1.5 font-medium ${NUMERIC.has(f.kind) && f.key !== 'id' ? 'text-right' : ''}`}
                >
                  {fieldLabel(t, f.key)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={String(row.id)} className="border-t border-slate-100" data-row-id={String(row.id)}>
                {columns.map((f) => (
                  <td
                    key={f.key}
                    className={`px-2 py-1.5 ${NUMERIC.has(f.kind) && f.key !== 'id' ? 'text-right tabular-nums whitespace-nowrap' : ''}`}
                    data-col={f.key}
                  >
                    {f.key === 'id' ? (
                      link(row, `#${String(row.id)}`)
                    ) : (
                      <ValueView t={t} field={f} value={row[f.key]} />
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-md border border-slate-200 bg-white p-4"
      data-related={resource.id}
    >
      <div className="mb-1 flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 id={headingId} className="font-semibold text-slate-800">
          {title}
        </h2>
        {query.data && stray.length === 0 && (
          <span className="text-sm text-slate-500" data-testid="related-total">
            {t('engine.totalCount', { count: total })}
          </span>
        )}
        {total > 0 && stray.length === 0 && (
          <Link href={allUrl} className="ml-auto text-sm text-primary hover:underline" data-testid="related-all">
            {t('record.seeAll', { title })}
          </Link>
        )}
      </div>
      {body}
    </section>
  );
}
