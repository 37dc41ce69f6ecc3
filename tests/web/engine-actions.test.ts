import { describe, expect, it } from 'vitest';
import { GOOGLE_VERIFY, INVITE_CODES, USERS, WITHDRAWAL_REVIEW } from '../../server/contract/index.js';
import { appliesTo, bulkActions, eligibleRows, pageActions, rowActions } from '../../web/engine/actions/actions.js';

const names = (list: { name: string }[]) => list.map((a) => a.name);

describe('actions offered by `when`', () => {
  it('offers ban to a normal user and unban to a banned one', () => {
    expect(names(rowActions(USERS, { status: 'normal', privileged: false }))).toEqual([
      'ban',
      'resetPassword',
      'setPrivileged',
    ]);
    expect(names(rowActions(USERS, { status: 'banned', privileged: true }))).toEqual([
      'unban',
      'resetPassword',
      'unsetPrivileged',
    ]);
  });

  it('reviews only pending withdrawals', () => {
    expect(names(rowActions(WITHDRAWAL_REVIEW, { state: 'pending' }))).toEqual(['approve', 'reject']);
    expect(rowActions(WITHDRAWAL_REVIEW, { state: 'approved' })).toEqual([]);
  });

  it('compares by value and type: the string "false" is not false', () => {
    expect(names(rowActions(GOOGLE_VERIFY, { googleBound: false, googlePending: false }))).toEqual(['bind']);
    expect(names(rowActions(GOOGLE_VERIFY, { googleBound: false, googlePending: true }))).toEqual([
      'bind',
      'confirmBind',
    ]);
    expect(rowActions(GOOGLE_VERIFY, { googleBound: 'false' })).toEqual([]);
  });

  it('splits row, bulk and page actions', () => {
    expect(names(bulkActions(INVITE_CODES))).toEqual(['disable']);
    expect(names(pageActions(INVITE_CODES))).toEqual(['generate']);
    expect(names(pageActions(WITHDRAWAL_REVIEW))).toEqual(['syncCashWithdrawal']);
  });

  it('keeps only the selected rows an action applies to', () => {
    const action = { when: { field: 'status', in: ['unused'] } } as const;
    const rows = [
      { id: 1, status: 'unused' },
      { id: 2, status: 'used' },
      { id: 3, status: 'unused' },
    ];
    expect(eligibleRows(action, rows).map((r) => r.id)).toEqual([1, 3]);
    expect(appliesTo({}, { anything: 1 })).toBe(true);
  });
});
