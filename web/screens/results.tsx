import type { ResultRendererProps } from '../engine/operation/result-view.js';
import { CopyButton, GenericResult } from '../engine/operation/result-view.js';
import { fieldLabel, optionLabel, resultLabel } from '../engine/shared/labels.js';

/** Answers that need more than a key/value list: secrets shown once, the sensitive-word tester. */

function asRecord(data: unknown): Record<string, unknown> {
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
}

/** A generated secret (password, authenticator key): large, copyable, with a shown-once warning. */
export function SecretResult({ data, t }: ResultRendererProps) {
  const record = asRecord(data);
  const entries = Object.entries(record).filter(([, v]) => typeof v === 'string' || typeof v === 'number');
  if (entries.length === 0) return <GenericResult data={data} t={t} />;
  return (
    <div className="flex flex-col gap-3">
      <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900" role="note">
        {t('result.shownOnce')}
      </p>
      {entries.map(([k, v]) => (
        <div key={k} className="flex flex-col gap-1">
          <span className="text-slate-500">{resultLabel(t, k)}</span>
          <div className="flex items-center">
            <code className="flex-1 break-all rounded bg-slate-100 px-2 py-1 font-mono text-base" data-result-key={k}>
              {String(v)}
            </code>
            <CopyButton text={String(v)} t={t} />
          </div>
        </div>
      ))}
    </div>
  );
}

interface Hit {
  word?: unknown;
  category?: unknown;
  index?: unknown;
}

/** The sensitive-word tester: which words the text hits, where, and of which category. */
export function SensitiveHits({ data, t }: ResultRendererProps) {
  const hits = asRecord(data).hits;
  if (!Array.isArray(hits)) return <GenericResult data={data} t={t} />;
  if (hits.length === 0)
    return (
      <p className="text-green-800" data-testid="no-hits">
        {t('result.noHits')}
      </p>
    );
  return (
    <table className="w-full text-left text-sm" data-testid="sensitive-hits">
      <caption className="mb-2 text-left font-medium">{`${t('result.hits')}: ${hits.length}`}</caption>
      <thead className="bg-slate-100 text-slate-600">
        <tr>
          <th scope="col" className="px-2 py-1">
            {fieldLabel(t, 'word')}
          </th>
          <th scope="col" className="px-2 py-1">
            {fieldLabel(t, 'category')}
          </th>
          <th scope="col" className="px-2 py-1 text-right">
            {t('result.index')}
          </th>
        </tr>
      </thead>
      <tbody>
        {(hits as Hit[]).map((h, i) => (
          <tr key={i} className="border-t border-slate-100">
            <td className="px-2 py-1 font-medium text-red-700">{String(h.word ?? '')}</td>
            <td className="px-2 py-1">{h.category ? optionLabel(t, 'category', String(h.category)) : ''}</td>
            <td className="px-2 py-1 text-right tabular-nums">{String(h.index ?? '')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Generated invitation codes: the list to copy at once. */
export function CodesResult({ data, t }: ResultRendererProps) {
  const record = asRecord(data);
  const list = Array.isArray(data) ? data : Array.isArray(record.codes) ? record.codes : null;
  if (!list) return <GenericResult data={data} t={t} />;
  const codes = list.map((c) =>
    c && typeof c === 'object' ? String((c as Record<string, unknown>).code ?? '') : String(c),
  );
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between">
        <span>{`${resultLabel(t, 'codes')}: ${codes.length}`}</span>
        <CopyButton text={codes.join('\n')} t={t} />
      </div>
      <pre className="max-h-64 overflow-auto rounded bg-slate-100 p-2 font-mono text-sm">{codes.join('\n')}</pre>
    </div>
  );
}
