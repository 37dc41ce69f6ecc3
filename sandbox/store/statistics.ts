import type {
  CountAnswer,
  DailyStatisticsAnswer,
  DailyStatisticsRow,
  FinanceData,
} from '../../server/contract/index.js';
import { hashText } from '../lib/prng.js';
import { DAY, dayKey, startOfDay } from '../lib/time.js';
import type { SandboxStore } from './sandbox-store.js';

/**
 * Dashboard figures, computed from the records on every call so they stay in step with the lists
 * (approve a withdrawal and the finance panel moves). Only activity and message volume, which
 * the sandbox keeps no records of, are synthesised, from a hash of the day so they are stable.
 */

/** Share of registered users active on a day: weekends busier, a little day-to-day noise. */
function activityRatio(seed: number, day: string): number {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  const weekend = weekday === 0 || weekday === 6 ? 0.06 : 0;
  const noise = (hashText(`${seed}:${day}`) % 1000) / 1000;
  return 0.22 + weekend + noise * 0.12;
}

function messagesPerActiveUser(seed: number, day: string): number {
  return 18 + (hashText(`${day}:${seed}:messages`) % 27);
}

function emptyRow(date: string): DailyStatisticsRow {
  return {
    date,
    registrations: 0,
    activeUsers: 0,
    messages: 0,
    newGroups: 0,
    rechargeAmount: 0,
    rechargeCount: 0,
    withdrawalAmount: 0,
    withdrawalCount: 0,
    redPacketAmount: 0,
  };
}

/** Rows for the UTC days [from, to] (day starts), oldest first. */
export function dailyStatistics(store: SandboxStore, from: number, to: number, now: number): DailyStatisticsAnswer {
  const rows = new Map<string, DailyStatisticsRow>();
  for (let day = from; day <= to; day += DAY) rows.set(dayKey(day), emptyRow(dayKey(day)));
  // Records hold ISO text; its first ten characters are the UTC day, which is all a row needs.
  const first = dayKey(from);
  const last = dayKey(to);
  const dayOf = (time: string) => time.slice(0, 10);

  let registeredBefore = 0;
  const registrationsByDay = new Map<string, number>();
  for (const user of store.users.all()) {
    const day = dayOf(user.registerTime);
    if (day < first) registeredBefore++;
    else if (day <= last) registrationsByDay.set(day, (registrationsByDay.get(day) ?? 0) + 1);
  }
  for (const group of store.groups.all()) {
    const row = rows.get(dayOf(group.createTime));
    if (row) row.newGroups++;
  }
  for (const bill of store.bills.all()) {
    const row = rows.get(dayOf(bill.createTime));
    if (!row) continue;
    if (bill.type === 'recharge') {
      row.rechargeAmount += bill.amount;
      row.rechargeCount++;
    } else if (bill.type === 'redPackSend') row.redPacketAmount += -bill.amount;
  }
  // Paid out on the day of approval, which is when the money actually left.
  for (const w of store.withdrawals.all()) {
    if (w.state !== 'approved' || w.reviewTime === null) continue;
    const row = rows.get(dayOf(w.reviewTime));
    if (!row) continue;
    row.withdrawalAmount += w.amount;
    row.withdrawalCount++;
  }

  const today = startOfDay(now);
  let registered = registeredBefore;
  for (const row of rows.values()) {
    row.registrations = registrationsByDay.get(row.date) ?? 0;
    registered += row.registrations;
    const dayStart = Date.parse(`${row.date}T00:00:00Z`);
    if (dayStart > now) continue;
    // Today is still going: activity so far grows with the hours elapsed.
    const elapsed = dayStart === today ? Math.max(0.05, (now - today) / DAY) : 1;
    row.activeUsers = Math.min(
      registered,
      Math.round(registered * activityRatio(store.seed, row.date) * elapsed) + row.registrations,
    );
    row.messages = Math.round(row.activeUsers * messagesPerActiveUser(store.seed, row.date));
  }
  return { startDate: dayKey(from), endDate: dayKey(to), list: [...rows.values()] };
}

export function countAnswer(store: SandboxStore, now: number): CountAnswer {
  const today = startOfDay(now);
  const todayRow = dailyStatistics(store, today, today, now).list[0];
  return {
    userCount: store.users.size,
    newUsersToday: todayRow?.registrations ?? 0,
    activeUsersToday: todayRow?.activeUsers ?? 0,
    onlineUsers: store.users.count((u) => u.online),
    groupCount: store.groups.size,
    messagesToday: todayRow?.messages ?? 0,
    pendingWithdrawals: store.pendingWithdrawalCount(),
    rechargeToday: todayRow?.rechargeAmount ?? 0,
    withdrawalToday: todayRow?.withdrawalAmount ?? 0,
  };
}

export function financeData(store: SandboxStore, now: number): FinanceData {
  const today = dayKey(now);
  const data: FinanceData = {
    totalRecharge: 0,
    totalWithdrawal: 0,
    totalWithdrawalFee: 0,
    pendingWithdrawalAmount: 0,
    pendingWithdrawalCount: 0,
    totalBalance: 0,
    totalRedPacket: 0,
    totalSignInReward: 0,
    rechargeToday: 0,
    withdrawalToday: 0,
  };
  for (const user of store.users.all()) data.totalBalance += user.balance;
  for (const bill of store.bills.all()) {
    if (bill.type === 'recharge') {
      data.totalRecharge += bill.amount;
      if (bill.createTime.slice(0, 10) === today) data.rechargeToday += bill.amount;
    } else if (bill.type === 'redPackSend') data.totalRedPacket += -bill.amount;
    else if (bill.type === 'signIn') data.totalSignInReward += bill.amount;
  }
  for (const w of store.withdrawals.all()) {
    if (w.state === 'pending') {
      data.pendingWithdrawalAmount += w.amount;
      data.pendingWithdrawalCount++;
    } else if (w.state === 'approved') {
      data.totalWithdrawal += w.amount;
      data.totalWithdrawalFee += w.fee;
      if (w.reviewTime !== null && w.reviewTime.slice(0, 10) === today) data.withdrawalToday += w.amount;
    }
  }
  return data;
}
