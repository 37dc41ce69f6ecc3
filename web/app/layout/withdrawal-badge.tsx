import { useSignals } from '@preact/signals-react/runtime';
import { withdrawalCount } from '../../api/withdrawals.js';
import { badgeText } from '../../lib/format.js';
import { useT } from '../../i18n/index.js';

/** Hidden at 0; above 0 an animated count (99+ past 99) with a tooltip. */
export function WithdrawalBadge({ dot = false }: { dot?: boolean }) {
  useSignals();
  const t = useT();
  const count = withdrawalCount.value;
  if (count <= 0) return null;
  const tip = t('badge.withdrawals');
  return (
    <span className="group/badge relative ml-auto inline-flex" data-testid="withdrawal-badge" data-count={count}>
      <span
        tabIndex={0}
        aria-label={`${tip}: ${count}`}
        className={
          dot
            ? 'badge-pulse absolute -top-1 -right-1 block h-2.5 w-2.5 rounded-full bg-danger'
            : 'badge-pulse inline-flex min-w-5 items-center justify-center rounded-full bg-danger px-1.5 text-xs leading-5 font-semibold text-on-fill'
        }
      >
        {dot ? '' : badgeText(count)}
      </span>
      <span
        role="tooltip"
        className="pointer-events-none absolute top-1/2 left-full z-50 ml-2 hidden -translate-y-1/2 rounded bg-slate-900 px-2 py-1 text-xs whitespace-nowrap text-white shadow group-focus-within/badge:block group-hover/badge:block"
      >
        {tip}
      </span>
    </span>
  );
}
