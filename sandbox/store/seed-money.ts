import type { Prng } from '../lib/prng.js';
import { HOUR, MINUTE } from '../lib/time.js';
import type { Ledger } from './ledger.js';
import { WITHDRAWAL_MIN } from './ledger.js';
import type { BillType, GroupRecord, UserRecord, WithdrawalRecord } from './types.js';

/**
 * Wallet history: each user gets a plausible sequence of recharges, sign-ins, red envelopes,
 * transfers and withdrawals, then everything is replayed through the ledger in time order so that
 * ids rise with time and every balance adds up.
 */

interface Review {
  outcome: 'approved' | 'rejected' | 'pending';
  reason: string | null;
  record?: WithdrawalRecord;
}

type SeedEvent =
  | { kind: 'bill'; time: number; user: UserRecord; type: BillType; amount: number; remark: string }
  | { kind: 'apply'; time: number; user: UserRecord; amount: number; review: Review }
  | { kind: 'review'; time: number; review: Review };

const REJECT_REASONS: readonly string[] = [
  'Payee name does not match the account holder',
  'Bank card information is incorrect',
  '收款信息有误，请核对后重新提交',
  'Duplicate application',
  'Suspicious activity, account under review',
];

const RECHARGE_CHANNELS: readonly string[] = ['Alipay', 'WeChat Pay', 'Bank card', 'USDT'];
const PENDING_WINDOW = 36 * HOUR;
/** Enough pending reviews at start that the badge shows. */
const MIN_PENDING = 8;

function round100(value: number): number {
  return Math.max(100, Math.floor(value / 100) * 100);
}

export function seedMoney(
  prng: Prng,
  ledger: Ledger,
  users: readonly UserRecord[],
  groups: readonly GroupRecord[],
  now: number,
): void {
  const events: SeedEvent[] = [];
  const available = new Map<number, number>();
  const lastTime = new Map<number, number>();
  let pending = 0;

  const apply = (user: UserRecord, time: number, amount: number, outcome: Review['outcome']) => {
    const review: Review = { outcome, reason: outcome === 'rejected' ? prng.pick(REJECT_REASONS) : null };
    events.push({ kind: 'apply', time, user, amount, review });
    if (outcome === 'pending') pending++;
    else
      events.push({
        kind: 'review',
        time: Math.min(now, time + 20 * MINUTE + Math.floor(prng.next() * 10 * HOUR)),
        review,
      });
  };

  for (const user of users) {
    const registered = Date.parse(user.registerTime);
    const level = prng.weighted([
      [0, 30],
      [1, 50],
      [2, 20],
    ]);
    const n = level === 0 ? prng.int(0, 1) : level === 1 ? prng.int(2, 8) : prng.int(8, 25);
    const times: number[] = [];
    for (let i = 0; i < n; i++) times.push(registered + Math.floor(prng.next() * (now - registered)));
    times.sort((a, b) => a - b);

    let balance = 0;
    const bill = (time: number, type: BillType, amount: number, remark: string) => {
      balance += amount;
      events.push({ kind: 'bill', time, user, type, amount, remark });
    };
    for (const time of times) {
      const kind = prng.weighted<BillType>([
        ['recharge', 3],
        ['signIn', 4],
        ['redPackReceive', 3],
        ['redPackSend', 2],
        ['transfer', 2],
        ['withdraw', level === 2 ? 2 : 0.6],
      ]);
      if (kind === 'signIn') bill(time, 'signIn', prng.pick([10, 20, 50, 100]), 'Daily sign-in reward');
      else if (kind === 'redPackReceive') {
        const from = groups.length > 0 && prng.chance(0.7) ? `group ${prng.pick(groups).name}` : 'a friend';
        bill(time, 'redPackReceive', Math.max(1, Math.round(Math.exp(prng.next() * 8))), `Red envelope from ${from}`);
      } else if (kind === 'redPackSend' && balance >= 100) {
        const amount = Math.min(balance, prng.pick([100, 500, 888, 1000, 2000, 5200, 6600, 8800, 10_000]));
        const to = groups.length > 0 && prng.chance(0.7) ? `group ${prng.pick(groups).name}` : 'a friend';
        bill(time, 'redPackSend', -amount, `Red envelope to ${to}`);
      } else if (kind === 'transfer' && (balance < 1000 || prng.chance(0.5))) {
        bill(time, 'transfer', prng.int(10, 500) * 100, `Transfer from ${prng.pick(users).nickname}`);
      } else if (kind === 'transfer') {
        bill(
          time,
          'transfer',
          -round100(Math.min(balance, prng.int(10, 500) * 100)),
          `Transfer to ${prng.pick(users).nickname}`,
        );
      } else if (kind === 'withdraw' && balance >= WITHDRAWAL_MIN) {
        const amount = round100(WITHDRAWAL_MIN + prng.next() * (Math.min(balance, 500_000) - WITHDRAWAL_MIN));
        const recent = now - time < PENDING_WINDOW;
        const outcome = recent && prng.chance(0.75) ? 'pending' : prng.chance(0.85) ? 'approved' : 'rejected';
        balance -= amount;
        apply(user, time, amount, outcome);
      } else {
        // Spending needs money first: the commonest first step in a wallet is a recharge.
        const amount = prng.weighted([
          [1000, 2],
          [5000, 4],
          [10_000, 5],
          [20_000, 4],
          [50_000, 3],
          [100_000, 2],
          [200_000, 1],
        ]);
        bill(time, 'recharge', amount, `Online recharge · ${prng.pick(RECHARGE_CHANNELS)}`);
      }
    }
    available.set(user.id, balance);
    lastTime.set(user.id, times[times.length - 1] ?? registered);
  }

  // Top up the review queue with recent applications from users who can afford one.
  const rich = users.filter((u) => u.status === 'normal' && (available.get(u.id) ?? 0) >= WITHDRAWAL_MIN);
  for (let i = 0; pending < MIN_PENDING && i < rich.length * 2; i++) {
    const user = prng.pick(rich);
    const balance = available.get(user.id) ?? 0;
    if (balance < WITHDRAWAL_MIN) continue;
    const time = Math.min(
      now,
      Math.max((lastTime.get(user.id) ?? 0) + MINUTE, now - Math.floor(prng.next() * 30 * HOUR)),
    );
    const amount = round100(WITHDRAWAL_MIN + prng.next() * (Math.min(balance, 300_000) - WITHDRAWAL_MIN));
    available.set(user.id, balance - amount);
    lastTime.set(user.id, time);
    apply(user, time, amount, 'pending');
  }

  // Stable sort keeps each user's same-millisecond events in the order they were drawn.
  events.sort((a, b) => a.time - b.time);
  for (const event of events) {
    if (event.kind === 'bill') ledger.post(event.user, event.type, event.amount, event.time, event.remark);
    else if (event.kind === 'apply') event.review.record = ledger.applyWithdrawal(event.user, event.amount, event.time);
    else {
      const record = event.review.record;
      if (!record) continue;
      if (event.review.outcome === 'approved') ledger.approve([record.id], 'admin', event.time);
      else ledger.reject([record.id], 'admin', event.review.reason ?? '', event.time);
    }
  }
}
