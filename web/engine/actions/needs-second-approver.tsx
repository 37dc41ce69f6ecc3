import type { LabelT } from '../../i18n/resources/index.js';
import { currencyOfRows, recordMoney } from '../shared/money-currency.js';
import type { Row } from '../shared/queries.js';

/**
 * Said in the approve dialog before the click: an approval over DUAL_CONTROL_ABOVE does not reach
 * the backend yet, it waits for a second administrator. The gateway decides as here: an
 * application still pending (or whose state is not said) whose `amount` is above the line.
 */
export function NeedsSecondApprover({ t, rows, above }: { t: LabelT; rows: readonly Row[]; above: number }) {
  const over = rows.filter(
    (r) => (r.state === undefined || r.state === null || r.state === 'pending') && Number(r.amount) > above,
  ).length;
  if (over === 0) return null;
  const limit = recordMoney(above, currencyOfRows(rows));
  return (
    <p
      className="mt-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      data-testid="needs-second-approver"
    >
      {rows.length === 1
        ? t('approvals.needsSecond', { limit })
        : t('approvals.needsSecondMany', { count: over, limit })}
    </p>
  );
}
