import { describe, expect, it } from 'vitest';
import {
  RESOURCES,
  WITHDRAWAL_CONFIG,
  ascending,
  checkRules,
  graphemeCount,
  validateField,
  type FieldDef,
} from '../../server/contract/index.js';

const FAMILY = '👨‍👩‍👧‍👦';

describe('graphemeCount', () => {
  it('counts what a reader sees, not UTF-16 units', () => {
    expect(FAMILY.length).toBe(11);
    expect(graphemeCount(FAMILY)).toBe(1);
    expect(graphemeCount(FAMILY.repeat(32))).toBe(32);
    expect(graphemeCount('🇪🇸')).toBe(1);
    expect(graphemeCount('é')).toBe(1); // e + combining acute
    expect(graphemeCount('王小明')).toBe(3);
    expect(graphemeCount('plain ascii')).toBe(11);
    expect(graphemeCount('')).toBe(0);
  });
});

describe('a text field limit', () => {
  const nickname: FieldDef = { key: 'nickname', kind: 'text', required: true, maxLength: 32 };
  it('takes 32 families and refuses 33', () => {
    expect(validateField(nickname, FAMILY.repeat(32))).toBeNull();
    expect(validateField(nickname, FAMILY.repeat(33))).toBe('tooLong');
  });
  it('calls a required value of only white space empty', () => {
    expect(validateField(nickname, '   ')).toBe('required');
    expect(validateField(nickname, '\t\n ')).toBe('required');
    expect(validateField({ ...nickname, required: false }, '   ')).toBeNull();
  });
});

describe('a number field with decimals', () => {
  const fee: FieldDef = { key: 'feePercent', kind: 'number', min: 0, max: 100, decimals: 2 };
  it('takes up to its decimals and refuses more', () => {
    expect(validateField(fee, 1.5)).toBeNull();
    expect(validateField(fee, 0.25)).toBeNull();
    expect(validateField(fee, '1.5')).toBeNull();
    expect(validateField(fee, 1.255)).toBe('tooManyDecimals');
    expect(validateField(fee, 1e-7)).toBe('tooManyDecimals');
  });
});

describe('checkRules', () => {
  const rules = ascending('minAmount', 'maxAmount', 'dailyLimit');
  it('reports each broken pair under its lower field, naming the limit', () => {
    expect(checkRules(rules, { minAmount: 100, maxAmount: 200, dailyLimit: 300 })).toEqual([]);
    expect(checkRules(rules, { minAmount: 200, maxAmount: 200, dailyLimit: 200 })).toEqual([]);
    expect(checkRules(rules, { minAmount: 6_000_000, maxAmount: 5_000_000, dailyLimit: 10_000_000 })).toEqual([
      { field: 'minAmount', limit: 'maxAmount' },
    ]);
    expect(checkRules(rules, { minAmount: 1, maxAmount: 500, dailyLimit: 400 })).toEqual([
      { field: 'maxAmount', limit: 'dailyLimit' },
    ]);
  });
  it('leaves a rule with a value missing or not a number to that value’s own check', () => {
    expect(checkRules(rules, { minAmount: 500 })).toEqual([]);
    expect(checkRules(rules, { minAmount: 500, maxAmount: '' })).toEqual([]);
    expect(checkRules(rules, { minAmount: '500', maxAmount: '400' })).toEqual([
      { field: 'minAmount', limit: 'maxAmount' },
    ]);
    expect(checkRules(undefined, { minAmount: 2, maxAmount: 1 })).toEqual([]);
  });
  it('names only number or money fields of its own resource', () => {
    expect(WITHDRAWAL_CONFIG.rules.length).toBeGreaterThan(0);
    for (const resource of RESOURCES) {
      if (!('rules' in resource) || !resource.rules) continue;
      for (const rule of resource.rules) {
        for (const key of [rule.field, rule.limit]) {
          const field = resource.fields.find((f) => f.key === key);
          expect(field?.kind, `${resource.id}.${key}`).toMatch(/^(number|money)$/);
        }
      }
    }
  });
});
