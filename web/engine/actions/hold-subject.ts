import type { LabelT } from '../../i18n/resources/index.js';
import { maskAccounts } from '../../lib/account-mask.js';
import { actionLabel, optionLabel } from '../shared/labels.js';
import { currencyOfRows, recordMoney } from '../shared/money-currency.js';
import type { Row } from '../shared/queries.js';
import { namesText } from '../record/record-names.js';
import { describingFields } from '../record/record-summary.js';
import type { Described } from './action-context.js';

/**
 * What a held money action moves, in one line that every place a hold shows uses (the panel, the
 * confirmation, the toast when it is held): "Approve #459 · ¥1,013.00 to Santander ...8759". A hold
 * is read by someone who did not make it, often later: the record's number, the amount and where
 * it goes, the account masked, say which money it is without opening the record.
 */
export function holdSubject(
  t: LabelT,
  resource: Described,
  action: string,
  rows: readonly Row[],
  targets: readonly string[] = [],
): string {
  const label = actionLabel(t, action);
  const named = rows.length > 0 ? rows.map((r) => String(r.id)) : targets;
  const ids = namesText(
    t,
    named.map((id) => `#${id}`),
  );
  const amount = amountOf(resource, rows);
  if (amount === null) return t('approvals.subjectPlain', { action: label, ids });
  const payee = rows.length === 1 ? payeeOf(t, resource, rows[0]!) : '';
  return payee
    ? t('approvals.subject', { action: label, ids, amount, payee })
    : t('approvals.subjectAmount', { action: label, ids, amount });
}

/** The rows' amount (their first money field, summed), or null when they have none to name. */
function amountOf(resource: Described, rows: readonly Row[]): string | null {
  const field =
    describingFields(resource).find((f) => f.kind === 'money') ?? resource.fields.find((f) => f.kind === 'money');
  if (!field || rows.length === 0) return null;
  let sum = 0;
  for (const row of rows) {
    const cents = Math.round(Number(row[field.key]));
    if (!Number.isSafeInteger(cents)) return null;
    sum += cents;
  }
  return recordMoney(sum, currencyOfRows(rows));
}

/** Where the money goes, its accounts masked; else how it is paid (the method's label); else nothing. */
function payeeOf(t: LabelT, resource: Described, row: Row): string {
  const { payee } = resource;
  const text = payee ? row[payee.field] : undefined;
  if (typeof text === 'string' && text.trim() !== '') {
    const account = payee?.account ? row[payee.account] : undefined;
    return maskAccounts(text.trim(), typeof account === 'string' ? account : undefined);
  }
  const method = describingFields(resource).find((f) => f.kind === 'select');
  const value = method ? row[method.key] : undefined;
  return method && value !== undefined && value !== null && value !== ''
    ? optionLabel(t, method.key, String(value))
    : '';
}
