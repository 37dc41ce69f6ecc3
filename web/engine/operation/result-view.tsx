import { useState, type ComponentType } from 'react';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useLabelT, type LabelT } from '../../i18n/resources/index.js';
import { formatBytes, formatDateTime } from '../../lib/format.js';
import { language } from '../../lib/settings.js';
import { resultLabel } from '../shared/labels.js';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** One answered value for people: times in the reader's language and zone, a `bytes` count as a size. */
export function resultText(key: string, value: unknown): string {
  if (key === 'bytes' && typeof value === 'number') return formatBytes(value, language.value);
  if (typeof value === 'string' && ISO_TIME.test(value)) return formatDateTime(value, language.value) || value;
  return String(value);
}

export interface ResultRendererProps {
  data: unknown;
  t: LabelT;
}
export type ResultRenderer = ComponentType<ResultRendererProps>;

export function CopyButton({ text, t }: { text: string; t: LabelT }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="btn ml-2 shrink-0"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        );
      }}
    >
      {copied ? t('engine.copied') : t('engine.copy')}
    </button>
  );
}

/** Any answer as readable rows: scalars as label/value, lists as bullet lists, objects nested. */
export function GenericResult({ data, t }: ResultRendererProps) {
  if (data === null || data === undefined || data === '') return <p className="text-slate-500">{t('engine.none')}</p>;
  if (typeof data !== 'object') return <p className="break-all font-mono">{String(data)}</p>;
  if (Array.isArray(data)) {
    return (
      <ul className="list-disc pl-5">
        {data.map((item, i) => (
          <li key={i} className="break-all">
            {typeof item === 'object' && item !== null ? <GenericResult data={item} t={t} /> : String(item)}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
      {Object.entries(data as Record<string, unknown>).map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-slate-500">{resultLabel(t, k)}</dt>
          <dd className="break-all" data-result-key={k}>
            {typeof v === 'object' && v !== null ? <GenericResult data={v} t={t} /> : resultText(k, v)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The answer of a `showsResult` action, shown until the administrator closes it. */
export function ResultDialog({
  open,
  title,
  data,
  renderer,
  onClose,
}: {
  open: boolean;
  title: string;
  data: unknown;
  renderer?: ResultRenderer | undefined;
  onClose: () => void;
}) {
  const t = useLabelT();
  const View = renderer ?? GenericResult;
  // Nothing while closed: the list renders its dialogs again with every page of rows.
  if (!open) return null;
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-lg rounded-lg bg-white p-5 shadow-xl" data-testid="result-dialog">
          <DialogTitle className="mb-3 text-lg font-semibold text-slate-800">{title}</DialogTitle>
          <div className="max-h-[60vh] overflow-y-auto text-sm text-slate-800">
            <View data={data} t={t} />
          </div>
          <div className="mt-4 flex justify-end">
            <button type="button" className="btn btn-primary" onClick={onClose} autoFocus>
              {t('engine.close')}
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
