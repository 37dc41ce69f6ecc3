import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useQuery } from '@tanstack/react-query';
import type { ListResource } from '#contract';
import { useLabelT } from '../i18n/resources/index.js';
import { fieldLabel, resourceTitle } from './labels.js';
import { detailQueryOptions, type Row } from './queries.js';
import type { DetailRenderer } from './types.js';
import { ValueView } from './value-cell.js';

/** The record a detail answer is about: either the answer itself or its first object member. */
function recordOf(resource: ListResource, data: unknown): Row {
  if (!data || typeof data !== 'object') return {};
  const obj = data as Row;
  if (resource.fields.some((f) => f.key in obj)) return obj;
  const inner = Object.values(obj).find((v) => v && typeof v === 'object' && !Array.isArray(v));
  return (inner as Row | undefined) ?? obj;
}

export function FieldList({ resource, record }: { resource: ListResource; record: Row }) {
  const t = useLabelT();
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
      {resource.fields
        .filter((f) => f.kind !== 'password')
        .map((f) => (
          <div key={f.key} className="contents">
            <dt className="text-slate-500">{fieldLabel(t, f.key)}</dt>
            <dd className="break-words text-slate-800" data-detail-field={f.key}>
              <ValueView t={t} field={f} value={record[f.key]} />
            </dd>
          </div>
        ))}
    </dl>
  );
}

/** GET {path}/detail?id in a side panel; a screen may replace the body with its own renderer. */
export function DetailDrawer({
  resource,
  row,
  renderer,
  onClose,
}: {
  resource: ListResource;
  row: Row | null;
  renderer?: DetailRenderer | undefined;
  onClose: () => void;
}) {
  const t = useLabelT();
  const id = row?.id;
  const query = useQuery({ ...detailQueryOptions(resource, id), enabled: row !== null });
  const Custom = renderer;
  return (
    <Dialog open={row !== null} onClose={onClose} className="relative z-40">
      <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
      <div className="fixed inset-y-0 right-0 flex w-full max-w-2xl">
        <DialogPanel className="flex w-full flex-col bg-white shadow-xl" data-testid="detail-drawer">
          <div className="flex items-center border-b border-slate-200 px-5 py-3">
            <DialogTitle className="text-lg font-semibold text-slate-800">
              {resourceTitle(t, resource.id)} #{String(id ?? '')}
            </DialogTitle>
            <button type="button" className="btn ml-auto" onClick={onClose}>
              {t('engine.close')}
            </button>
          </div>
          <div className="flex-1 overflow-y-auto px-5 py-4">
            {query.isPending ? (
              <p role="status" className="text-slate-500">
                {t('engine.loading')}
              </p>
            ) : query.isError ? (
              <div role="alert" className="text-red-700">
                {t('engine.loadFailed')}{' '}
                <button type="button" className="btn" onClick={() => void query.refetch()}>
                  {t('engine.retry')}
                </button>
              </div>
            ) : Custom && row ? (
              <Custom resource={resource} data={query.data} row={row} t={t} />
            ) : (
              <FieldList resource={resource} record={recordOf(resource, query.data)} />
            )}
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
