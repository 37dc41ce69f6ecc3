import type { CLEAN_TARGETS, SEGMENTS } from '../../../server/contract/index.js';
import {
  CHANNEL_STATISTICS,
  DAILY_STATISTICS,
  DATA_CLEAN,
  IP_BLACKLIST,
  LOGIN_RECORDS,
  MASS_MESSAGES,
  ONLINE_USERS,
  SEGMENTS as SEGMENT_LIST,
  SUGGESTIONS,
  USER_CHANNELS,
} from '../../../server/contract/index.js';
import { badRequest } from '../../errors.js';
import { DAY, dayKey, iso } from '../../lib/time.js';
import type { SandboxStore } from '../../store/sandbox-store.js';
import type { IpBlacklistRecord, MassMessageRecord, SuggestionRecord } from '../../store/records.js';
import { segmentCount } from '../../store/seed-operation.js';
import { dailyStatistics } from '../../store/statistics.js';
import type { Bindings, ListBinding, OperationBinding, StatisticsBinding } from '../resources.js';
import { listBinding } from '../resources.js';

/** The operations screens: statistics, blacklist, clean-up, limits, sessions, logins, broadcasts, addresses, feedback. */

/** A broadcast goes out at a steady pace; a few devices never receive it. */
const DELIVERY_PER_SECOND = 400;
const MIN_DELIVERY_MS = 4_000;
const UNREACHABLE_SHARE = 0.015;

function dailyBinding(store: SandboxStore): StatisticsBinding {
  return {
    rows: (from, to, _dimension, now) =>
      dailyStatistics(store, from, to, now).list.map((row) => ({
        date: row.date,
        registrations: row.registrations,
        activeUsers: row.activeUsers,
        messages: row.messages,
        newGroups: row.newGroups,
        rechargeAmount: row.rechargeAmount,
        withdrawAmount: row.withdrawalAmount,
      })),
  };
}

/** Per channel and day: registrations and recharges from the records; activity shared out by each channel's user base. */
function channelBinding(store: SandboxStore): StatisticsBinding {
  return {
    rows(from, to, dimension, now) {
      const channels = dimension === null ? USER_CHANNELS : USER_CHANNELS.filter((c) => c === dimension);
      const first = dayKey(from);
      const last = dayKey(to);
      const key = (day: string, channel: string) => `${day}|${channel}`;
      const registrations = new Map<string, number>();
      const recharge = new Map<string, number>();
      const base = new Map<string, number>();
      for (const user of store.users.all()) {
        const day = user.registerTime.slice(0, 10);
        if (day < first) base.set(user.channel, (base.get(user.channel) ?? 0) + 1);
        else if (day <= last)
          registrations.set(key(day, user.channel), (registrations.get(key(day, user.channel)) ?? 0) + 1);
      }
      for (const bill of store.bills.all()) {
        if (bill.type !== 'recharge') continue;
        const day = bill.createTime.slice(0, 10);
        if (day < first || day > last) continue;
        const channel = store.users.get(bill.userId)?.channel;
        if (channel) recharge.set(key(day, channel), (recharge.get(key(day, channel)) ?? 0) + bill.amount);
      }
      const daily = new Map(dailyStatistics(store, from, to, now).list.map((row) => [row.date, row]));
      const rows: Record<string, unknown>[] = [];
      let totalBase = 0;
      for (const channel of USER_CHANNELS) totalBase += base.get(channel) ?? 0;
      for (let day = from; day <= to; day += DAY) {
        const date = dayKey(day);
        for (const channel of USER_CHANNELS) {
          const registered = registrations.get(key(date, channel)) ?? 0;
          base.set(channel, (base.get(channel) ?? 0) + registered);
        }
        totalBase = USER_CHANNELS.reduce((sum, c) => sum + (base.get(c) ?? 0), 0);
        for (const channel of channels) {
          const share = totalBase === 0 ? 0 : (base.get(channel) ?? 0) / totalBase;
          rows.push({
            date,
            channel,
            registrations: registrations.get(key(date, channel)) ?? 0,
            activeUsers: Math.round((daily.get(date)?.activeUsers ?? 0) * share),
            rechargeAmount: recharge.get(key(date, channel)) ?? 0,
          });
        }
      }
      return rows;
    },
  };
}

function dataCleanBinding(store: SandboxStore): OperationBinding {
  type Target = (typeof CLEAN_TARGETS)[number];
  return {
    preview: (inputs, ctx) => store.dataCleaner.preview(inputs.target as Target, Number(inputs.olderThanDays), ctx.now),
    run: (inputs, ctx) => store.dataCleaner.clean(inputs.target as Target, Number(inputs.olderThanDays), ctx.now),
  };
}

function massMessageBinding(store: SandboxStore): ListBinding<MassMessageRecord> {
  const inFlight = new Map<number, { final: number; start: number; duration: number }>();
  const segmentOf = (value: unknown): (typeof SEGMENTS)[number] => {
    const segment = String(value ?? '');
    if (!(SEGMENT_LIST as readonly string[]).includes(segment)) throw badRequest('选项无效');
    return segment as (typeof SEGMENTS)[number];
  };
  return {
    collection: store.massMessages,
    refresh(now) {
      for (const [id, flight] of inFlight) {
        const record = store.massMessages.get(id);
        if (!record) {
          inFlight.delete(id);
          continue;
        }
        const progress = Math.min(1, (now - flight.start) / flight.duration);
        record.deliveredCount = Math.floor(flight.final * progress);
        if (progress >= 1) {
          record.state = 'sent';
          inFlight.delete(id);
        }
      }
    },
    preview: (query, ctx) => ({ targetCount: segmentCount(store.users.all(), segmentOf(query.segment), ctx.now) }),
    actions: {
      send({ inputs, ctx }) {
        const segment = segmentOf(inputs.segment);
        const targetCount = segmentCount(store.users.all(), segment, ctx.now);
        const record = store.massMessages.insert({
          title: String(inputs.title),
          content: String(inputs.content),
          segment,
          state: targetCount === 0 ? 'sent' : 'sending',
          targetCount,
          deliveredCount: 0,
          createTime: iso(ctx.now),
          sentBy: ctx.admin.account,
        });
        if (targetCount > 0) {
          inFlight.set(record.id, {
            final: targetCount - Math.floor(targetCount * UNREACHABLE_SHARE),
            start: ctx.now,
            duration: Math.max(MIN_DELIVERY_MS, (targetCount / DELIVERY_PER_SECOND) * 1000),
          });
        }
        return { ...record };
      },
    },
  };
}

function suggestionBinding(store: SandboxStore): ListBinding<SuggestionRecord> {
  const find = (id: number) => store.suggestions.get(id)!;
  return {
    collection: store.suggestions,
    actions: {
      markHandled({ ids, ctx }) {
        for (const id of ids ?? []) Object.assign(find(id), { state: 'handled', handledBy: ctx.admin.account });
        return { updated: ids?.length ?? 0 };
      },
      reply({ ids, inputs, ctx }) {
        for (const id of ids ?? [])
          Object.assign(find(id), { reply: String(inputs.reply), state: 'handled', handledBy: ctx.admin.account });
        return { updated: ids?.length ?? 0 };
      },
    },
  };
}

export function operationBindings(
  store: SandboxStore,
): Pick<Bindings, 'statistics' | 'operation'> & { list: Bindings['list'] } {
  const blacklist: ListBinding<IpBlacklistRecord> = {
    collection: store.ipBlacklist,
    prepare(values, _ctx, existing) {
      if (typeof values.ip !== 'string') return;
      const ip = values.ip.toLowerCase();
      values.ip = ip;
      if (store.ipBlacklist.find((r) => r.ip === ip && r.id !== existing?.id))
        throw badRequest(`${ip} is already blacklisted`);
    },
    create: (values, ctx) =>
      store.ipBlacklist.insert({
        ...(values as Omit<IpBlacklistRecord, 'id' | 'createdBy' | 'createTime'>),
        createdBy: ctx.admin.account,
        createTime: iso(ctx.now),
      }),
  };

  const online = {
    collection: store.onlineSessions,
    actions: {
      forceLogout({ ids }: { ids: number[] | null }) {
        const removed = store.onlineSessions.remove(ids ?? []);
        for (const id of ids ?? []) {
          const user = store.users.get(id);
          if (user) user.online = false;
        }
        return { updated: removed };
      },
    },
  };

  return {
    list: {
      [IP_BLACKLIST.id]: listBinding(blacklist),
      [ONLINE_USERS.id]: listBinding(online),
      [LOGIN_RECORDS.id]: listBinding({ collection: store.loginRecords }),
      [MASS_MESSAGES.id]: listBinding(massMessageBinding(store)),
      [SUGGESTIONS.id]: listBinding(suggestionBinding(store)),
    },
    statistics: {
      [DAILY_STATISTICS.id]: dailyBinding(store),
      [CHANNEL_STATISTICS.id]: channelBinding(store),
    },
    operation: { [DATA_CLEAN.id]: dataCleanBinding(store) },
  };
}
