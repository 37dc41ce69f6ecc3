import i18next from 'i18next';
import type { ActionDef, FieldDef } from '#contract';
import type { LabelKey, LabelT } from '../../i18n/resources/index.js';
import type { Query } from '../../api/client.js';
import { actionLabel, optionLabel } from '../shared/labels.js';
import type { Row } from '../shared/queries.js';
import { namesText } from '../record/record-names.js';
import { describingFields } from '../record/record-summary.js';

/**
 * What an action's dialogs say: a title naming the records it acts on ("Ban: sakura2825",
 * "Ban: 3 records (a, b, c)"), and the question before it runs, in the words a person would use
 * where the action has its own (`confirm.<action>`: "Approve ¥1,200.00 to +34… (Bank card)?"),
 * else "Run “Ban” on sakura2825?".
 */

/** Who an action is about: one row, a selection, every record matching the filters, or the page. */
export type ActionTarget =
  { id: unknown } | { ids: unknown[] } | { matching: Query; total: number } | Record<string, never>;

export interface WordingContext {
  t: LabelT;
  described: { fields: readonly FieldDef[]; recordFields?: readonly string[] };
  nameOf: (row: Row) => string;
  /** An amount in the smallest unit with the rows' currency (else the wallet's), the reader's way. */
  money: (cents: number, rows: readonly Row[]) => string;
}

/** The question key of an action with wording of its own, for one record or for several. */
export const confirmKey = (name: string) => `confirm.${name}`;
export const confirmManyKey = (name: string) => `confirmMany.${name}`;

const names = (c: WordingContext, rows: readonly Row[]) => namesText(c.t, rows.map(c.nameOf));

/** The dialog's title: the action and the records it is about. */
export function actionTitle(
  c: WordingContext,
  action: Pick<ActionDef, 'name'>,
  target: ActionTarget,
  rows: readonly Row[],
): string {
  const label = actionLabel(c.t, action.name);
  if ('matching' in target) return c.t('engine.actionTitleMatching', { action: label, count: target.total });
  if ('ids' in target && rows.length > 0)
    return c.t('engine.actionTitleOnMany', { action: label, count: target.ids.length, names: names(c, rows) });
  if ('id' in target && rows[0]) return c.t('engine.actionTitleOn', { action: label, name: c.nameOf(rows[0]) });
  return label;
}

/**
 * What a money action moves, read from the record's describing fields: the amount (the first money
 * field, summed over the rows) and, for one record, how it is paid (the first choice field's label).
 * Null when the records have no amount to name.
 */
function moneyFacts(c: WordingContext, rows: readonly Row[]): { amount: string; method: string } | null {
  const fields = describingFields(c.described);
  const amount = fields.find((f) => f.kind === 'money');
  if (!amount || rows.length === 0) return null;
  let sum = 0;
  for (const row of rows) {
    const cents = Math.round(Number(row[amount.key]));
    if (!Number.isSafeInteger(cents)) return null;
    sum += cents;
  }
  const method = fields.find((f) => f.kind === 'select');
  const value = method && rows.length === 1 ? rows[0]![method.key] : undefined;
  return {
    amount: c.money(sum, rows),
    method:
      method && value !== undefined && value !== null && value !== ''
        ? optionLabel(c.t, method.key, String(value))
        : '',
  };
}

/** Whether a label exists, plural forms included (i18next keeps those under suffixed keys only). */
const labelExists = (key: string) => i18next.exists(key) || i18next.exists(`${key}_other`);

/** The question asked before an action runs on `target`. */
export function actionQuestion(
  c: WordingContext,
  action: Pick<ActionDef, 'name' | 'money'>,
  target: ActionTarget,
  rows: readonly Row[],
): string {
  const label = actionLabel(c.t, action.name);
  if ('matching' in target) return c.t('engine.confirmActionMatching', { action: label, count: target.total });
  if ('ids' in target) {
    const own = confirmManyKey(action.name);
    const facts = action.money ? moneyFacts(c, rows) : null;
    if (rows.length > 0 && labelExists(own) && (!action.money || facts)) {
      return c.t(own as LabelKey, { count: rows.length, names: names(c, rows), amount: facts?.amount ?? '' });
    }
    return c.t('engine.confirmActionOnMany', { action: label, count: target.ids.length, names: names(c, rows) });
  }
  if ('id' in target) {
    const row = rows[0];
    if (!row) return c.t('engine.confirmAction', { action: label });
    const own = confirmKey(action.name);
    const facts = action.money ? moneyFacts(c, rows) : null;
    if (labelExists(own) && (!action.money || (facts && facts.method))) {
      return c.t(own as LabelKey, { name: c.nameOf(row), amount: facts?.amount ?? '', method: facts?.method ?? '' });
    }
    return c.t('engine.confirmActionOn', { action: label, name: c.nameOf(row) });
  }
  return c.t('engine.confirmPageAction', { action: label });
}
