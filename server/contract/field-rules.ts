/**
 * Rules between two fields of one form, declared beside its fields (`rules` of a list or settings
 * resource): what each field's own bounds cannot say, such as a minimum withdrawal that must not
 * exceed the maximum. The form checks them as the administrator saves, the gateway before a call
 * goes on or is held, the sandbox backend as it stores, and a held save's confirmation names any
 * the settings it would make break.
 */

/** `field` must not be greater than `limit` (both numbers of the same unit). */
export interface NotAboveRule {
  kind: 'notAbove';
  field: string;
  limit: string;
}

export type FieldRule = NotAboveRule;

/** A broken rule: the field it is reported under and the field it is measured against. */
export interface RuleBreach {
  field: string;
  limit: string;
}

function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/**
 * The rules `record` breaks. A rule with either value missing or not a number is not judged here:
 * that value's own check (required, a number) reports it.
 */
export function checkRules(rules: readonly FieldRule[] | undefined, record: Record<string, unknown>): RuleBreach[] {
  const out: RuleBreach[] = [];
  for (const rule of rules ?? []) {
    const value = numberOf(record[rule.field]);
    const limit = numberOf(record[rule.limit]);
    if (value !== null && limit !== null && value > limit) out.push({ field: rule.field, limit: rule.limit });
  }
  return out;
}

/** `a <= b <= c ...`: one rule per neighbouring pair. */
export function ascending(...keys: string[]): FieldRule[] {
  return keys.slice(1).map((limit, i) => ({ kind: 'notAbove', field: keys[i]!, limit }));
}
