import type { WithdrawalMethod } from '../../server/contract/index.js';
import { SandboxError, badRequest } from '../errors.js';
import type { Prng } from '../lib/prng.js';
import { dayKey, iso } from '../lib/time.js';
import type { Collection } from './collection.js';
import { pickBank } from './names.js';
import type { BillRecord, BillType, UserRecord, WithdrawalRecord } from './types.js';

/** What the sandbox's wallets hold: every balance, bill and withdrawal amount is in it (a USDT payout included). */
export const WALLET_CURRENCY = 'CNY';

/** Smallest withdrawal, and the fee rule: 1 %, at least 1.00. */
export const WITHDRAWAL_MIN = 10_000;
export function withdrawalFee(amount: number): number {
  return Math.max(100, Math.round(amount / 100));
}

interface Payee {
  method: WithdrawalMethod;
  payeeAccount: string;
  bankName: string | null;
}

function accountInfo(payee: Payee): string {
  if (payee.method === 'bankCard') return `${payee.bankName ?? ''} ${payee.payeeAccount}`.trim();
  if (payee.method === 'alipay') return `Alipay ${payee.payeeAccount}`;
  return `USDT (TRC20) ${payee.payeeAccount}`;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * The wallet side of the store: every change of a balance goes through here, so a user's balance
 * always equals the sum of their bills and every bill's balanceAfter is true.
 */
export class Ledger {
  private readonly payees = new Map<number, Payee>();

  constructor(
    private readonly users: Collection<UserRecord>,
    readonly bills: Collection<BillRecord>,
    readonly withdrawals: Collection<WithdrawalRecord>,
    private readonly prng: Prng,
    /**
     * Decides which users withdraw to an account someone else already uses (a family's card, or a
     * ring of accounts paying one collector), drawing apart from `prng` so the rest of the seeded
     * data stays what it was before payees were shared.
     */
    private readonly sharing: Prng | null = null,
  ) {}

  post(user: UserRecord, type: BillType, amount: number, time: number, remark: string): BillRecord {
    const balanceAfter = user.balance + amount;
    if (balanceAfter < 0) throw new Error(`balance of user ${user.id} would go negative`);
    user.balance = balanceAfter;
    const bill = this.bills.insert({
      orderNo: '',
      userId: user.id,
      userAccount: user.account,
      nickname: user.nickname,
      type,
      amount,
      balanceAfter,
      remark,
      createTime: iso(time),
    });
    bill.orderNo = `B${dayKey(time).replaceAll('-', '')}${String(bill.id).padStart(7, '0')}`;
    return bill;
  }

  /** Each user withdraws to one account, chosen the first time and kept, as people do. */
  private payee(user: UserRecord): Payee {
    let payee = this.payees.get(user.id);
    if (!payee) {
      const p = this.prng;
      const method = p.weighted<WithdrawalMethod>([
        ['bankCard', 60],
        ['alipay', user.region === 'CN' ? 35 : 0],
        ['usdt', 15],
      ]);
      if (method === 'bankCard')
        payee = { method, payeeAccount: `6${p.digits(p.pick([15, 18]))}`, bankName: pickBank(p, user.region) };
      else if (method === 'alipay') payee = { method, payeeAccount: user.phone, bankName: null };
      else {
        let address = 'T';
        for (let i = 0; i < 33; i++) address += BASE58[p.int(0, BASE58.length - 1)];
        payee = { method, payeeAccount: address, bankName: null };
      }
      payee = this.maybeShared(payee);
      this.payees.set(user.id, payee);
    }
    return payee;
  }

  /** About one user in thirty withdraws to an account another user already withdrew to. */
  private maybeShared(own: Payee): Payee {
    if (!this.sharing || this.payees.size < 10 || !this.sharing.chance(1 / 30)) return own;
    const taken = [...this.payees.values()];
    return taken[this.sharing.int(0, taken.length - 1)]!;
  }

  /** A user applies: the amount is frozen (taken from the wallet) until review; a rejection refunds it. */
  applyWithdrawal(user: UserRecord, amount: number, time: number): WithdrawalRecord {
    if (amount < WITHDRAWAL_MIN || amount > user.balance) throw new Error('withdrawal amount out of range');
    const payee = this.payee(user);
    const fee = withdrawalFee(amount);
    const record = this.withdrawals.insert({
      orderNo: '',
      userId: user.id,
      userAccount: user.account,
      nickname: user.nickname,
      amount,
      fee,
      actualAmount: amount - fee,
      currency: WALLET_CURRENCY,
      method: payee.method,
      accountInfo: accountInfo(payee),
      payeeName: user.realName,
      payeeAccount: payee.payeeAccount,
      bankName: payee.bankName,
      state: 'pending',
      reason: null,
      reviewer: null,
      createTime: iso(time),
      reviewTime: null,
    });
    record.orderNo = `W${dayKey(time).replaceAll('-', '')}${String(record.id).padStart(6, '0')}`;
    this.post(user, 'withdraw', -amount, time, `Withdrawal ${record.orderNo}`);
    return record;
  }

  /** A pending application from some user who can afford one; tops a wallet up first if nobody can. */
  applyRandomWithdrawal(time: number): WithdrawalRecord {
    const p = this.prng;
    const candidates = this.users.all().filter((u) => u.status === 'normal' && u.balance >= WITHDRAWAL_MIN);
    let user: UserRecord;
    if (candidates.length > 0) user = p.pick(candidates);
    else {
      user = p.pick(this.users.all());
      this.post(user, 'recharge', p.pick([50_000, 100_000, 200_000]), time, 'Online recharge');
    }
    const max = Math.min(user.balance, 300_000);
    const amount = Math.max(
      WITHDRAWAL_MIN,
      Math.floor((WITHDRAWAL_MIN + p.next() * (max - WITHDRAWAL_MIN)) / 100) * 100,
    );
    return this.applyWithdrawal(user, amount, time);
  }

  private pending(id: number): WithdrawalRecord {
    const record = this.withdrawals.get(id);
    if (!record) throw new SandboxError(404, `Withdrawal ${id} not found`);
    if (record.state !== 'pending') throw badRequest(`Withdrawal ${record.orderNo} has already been reviewed`);
    return record;
  }

  /** Checks every id before changing any, so a bulk review is all or nothing. */
  approve(ids: readonly number[], reviewer: string, time: number): number {
    const records = [...new Set(ids)].map((id) => this.pending(id));
    for (const record of records) {
      Object.assign(record, { state: 'approved', reviewTime: iso(time), reviewer, reason: null });
    }
    return records.length;
  }

  reject(ids: readonly number[], reviewer: string, reason: string, time: number): number {
    const records = [...new Set(ids)].map((id) => this.pending(id));
    for (const record of records) {
      Object.assign(record, { state: 'rejected', reviewTime: iso(time), reviewer, reason });
      const user = this.users.get(record.userId);
      if (user) this.post(user, 'refund', record.amount, time, `Refund of ${record.orderNo}`);
    }
    return records.length;
  }
}
