import { useEffect, useState } from 'react';
import type { ReadonlySignal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import type { LabelT } from '../../i18n/resources/index.js';

interface Props {
  /** null while not known yet: the first count told is the baseline, not news. */
  count: ReadonlySignal<number | null>;
  t: LabelT;
  /** When the list last arrived from the backend. */
  dataUpdatedAt: number;
  onShow: () => void;
}

/**
 * "N new: show" above a list whose records also arrive from elsewhere (withdrawal applications):
 * the count when the list was last loaded is the baseline, a rise over it offers a refresh, and a
 * fall (one reviewed here) lowers it so the next arrival is counted from there.
 */
export function NewRecordsBar({ count, t, dataUpdatedAt, onShow }: Props) {
  useSignals();
  const now = count.value;
  const [base, setBase] = useState(now);
  // Fresh rows from the backend hold everything counted so far.
  useEffect(() => setBase(count.peek()), [dataUpdatedAt, count]);
  if (now !== null && (base === null || now < base)) setBase(now);
  const fresh = now !== null && base !== null ? now - base : 0;
  if (fresh <= 0) return null;
  return (
    <div
      role="status"
      className="flex items-center gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      data-testid="new-records"
    >
      <span>{t('engine.newRecords', { count: fresh })}</span>
      <button
        type="button"
        className="btn"
        onClick={() => {
          setBase(now);
          onShow();
        }}
      >
        {t('engine.showNew')}
      </button>
    </div>
  );
}
