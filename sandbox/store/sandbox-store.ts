import {
  ANNOUNCEMENTS,
  APP_VERSIONS,
  DEFAULT_AVATARS,
  DEFAULT_EMOJI,
  DEFAULT_FRIENDS,
  DEFAULT_GROUPS as DEFAULT_GROUPS_RESOURCE,
  DISCOVER_ENTRIES,
  GROUP_RED_ENVELOPES,
  INVITE_CODES,
  IP_BLACKLIST,
  LOGIN_RECORDS,
  MASS_MESSAGES,
  ONLINE_USERS,
  OPERATION_LOG,
  PERSONAL_RED_ENVELOPES,
  PRIVILEGED_USERS,
  RECHARGE_CHANNELS,
  SECURITY_QUESTIONS,
  SENSITIVE_WORDS,
  SUGGESTIONS,
  type ListResource,
} from '../../server/contract/index.js';
import { Prng, hashText } from '../lib/prng.js';
import { iso } from '../lib/time.js';
import { type AdminAccount, Sessions, makeAdminAccounts } from './accounts.js';
import { Collection, filterBy } from './collection.js';
import { DataCleaner } from './data-clean.js';
import { Deployment } from './deployment.js';
import { Ledger } from './ledger.js';
import type * as R from './records.js';
import { seedAppVersions, seedMembers, seedRechargeChannels, seedRedEnvelopes } from './seed-finance.js';
import { seedMoney } from './seed-money.js';
import {
  seedIpBlacklist,
  seedLoginRecords,
  seedMassMessages,
  seedOnlineSessions,
  seedOperationLog,
  seedSuggestions,
} from './seed-operation.js';
import { HISTORY_DAYS, seedGroups, seedUsers } from './seed-people.js';
import {
  seedAnnouncements,
  seedDefaultAvatars,
  seedDefaultEmoji,
  seedDefaultFriends,
  seedDefaultGroups,
  seedDiscover,
  seedInviteCodes,
  seedPrivilegedUsers,
  seedSecurityQuestions,
  seedSensitiveWords,
} from './seed-site.js';
import { defaultSettings } from './settings.js';
import { SEEDS, type Seed } from './seeds.js';
import { specFor } from './specs.js';
import type { BillRecord, GroupRecord, UserRecord, WithdrawalRecord } from './types.js';

export interface StoreOptions {
  seed: number;
  /** The moment the seeded history ends. */
  now: number;
  /** How many chat users to seed (a bench asks for 100,000). */
  userCount?: number;
  groups?: number;
  /** Starting rows of the tables served from their declaration alone, by resource id (default SEEDS). */
  seeds?: Readonly<Record<string, Seed>>;
}

/** A row of a table the store keeps for a resource's declaration alone. */
export type GenericRow = { id: number } & Record<string, unknown>;

export const DEFAULT_USERS = 3_000;
export const DEFAULT_GROUPS = 300;
/** Users with wallet history; past this the rest of a large user base never touched the wallet. */
export const MAX_WALLET_USERS = 1_500;

/**
 * Everything the sandbox backend knows. Tables are Collections so that every management page gets
 * paging, search and sorting the same way; each page's routes live under its permission prefix.
 */
export class SandboxStore {
  readonly seed: number;
  readonly accounts: Collection<AdminAccount>;
  readonly sessions: Sessions;
  readonly users: Collection<UserRecord>;
  readonly groups: Collection<GroupRecord>;
  readonly bills: Collection<BillRecord>;
  readonly withdrawals: Collection<WithdrawalRecord>;
  readonly ledger: Ledger;
  readonly deployment: Deployment;
  /** Members per group id. */
  readonly members: Map<number, R.GroupMember[]>;
  readonly operationLog: Collection<R.OperationLogRecord>;
  readonly defaultFriends: Collection<R.DefaultFriendRecord>;
  readonly defaultGroups: Collection<R.DefaultGroupRecord>;
  readonly defaultAvatars: Collection<R.DefaultAvatarRecord>;
  readonly defaultEmoji: Collection<R.DefaultEmojiRecord>;
  readonly securityQuestions: Collection<R.SecurityQuestionRecord>;
  readonly discover: Collection<R.DiscoverRecord>;
  readonly announcements: Collection<R.AnnouncementRecord>;
  readonly inviteCodes: Collection<R.InviteCodeRecord>;
  readonly sensitiveWords: Collection<R.SensitiveWordRecord>;
  readonly privilegedUsers: Collection<R.PrivilegedUserRecord>;
  readonly ipBlacklist: Collection<R.IpBlacklistRecord>;
  readonly onlineSessions: Collection<R.OnlineSessionRecord>;
  readonly loginRecords: Collection<R.LoginRecord>;
  readonly massMessages: Collection<R.MassMessageRecord>;
  readonly suggestions: Collection<R.SuggestionRecord>;
  readonly rechargeChannels: Collection<R.RechargeChannelRecord>;
  readonly personalRedEnvelopes: Collection<R.PersonalRedEnvelopeRecord>;
  readonly groupRedEnvelopes: Collection<R.GroupRedEnvelopeRecord>;
  readonly appVersions: Collection<R.AppVersionRecord>;
  /** One object per settings resource, by resource id. */
  readonly settings: Record<string, Record<string, unknown>>;
  readonly dataCleaner: DataCleaner;
  /** Draws made after seeding (ticks, monitoring drift), apart from the seeding stream. */
  readonly runtime: Prng;
  readonly counters = {
    /** How many times the pending-withdrawal count was asked for: the gateway's polls. */
    withdrawalCountPolls: 0,
    /** Applications waiting on the payment side until someone presses sync. */
    unsyncedWithdrawals: 0,
    withdrawalTicks: 0,
  };
  private loginIndex: { size: number; byUser: Map<number, R.LoginRecord[]> } | null = null;
  /** The tables of resources without a named one here, made on first use (see table()). */
  private readonly tables = new Map<string, Collection<GenericRow>>();
  private readonly seeds: Readonly<Record<string, Seed>>;
  private readonly seededUntil: number;

  constructor(options: StoreOptions) {
    const prng = new Prng(options.seed);
    const { now } = options;
    this.seed = options.seed;
    this.seeds = options.seeds ?? SEEDS;
    this.seededUntil = now;
    this.runtime = prng.fork(1);
    this.accounts = makeAdminAccounts(now);
    this.sessions = new Sessions(this.accounts);

    const users = seedUsers(prng.fork(2), options.userCount ?? DEFAULT_USERS, now);
    this.users = new Collection<UserRecord>(
      {
        keywordFields: ['id', 'account', 'nickname', 'phone'],
        sortFields: ['id', 'account', 'registerTime', 'lastLoginTime', 'balance'],
        defaultSort: { field: 'registerTime', desc: true },
        filters: {
          status: filterBy.exact('status'),
          channel: filterBy.exact('channel'),
          online: filterBy.exact('online'),
          privileged: filterBy.exact('privileged'),
          ...filterBy.dateRange('registerTime'),
        },
      },
      users,
    );
    this.users.prepareSorts();
    const groups = seedGroups(prng.fork(3), options.groups ?? DEFAULT_GROUPS, users, now);
    this.members = seedMembers(prng.fork(6), groups, users, now);
    this.groups = new Collection<GroupRecord>(
      {
        keywordFields: ['id', 'name', 'ownerAccount'],
        sortFields: ['id', 'createTime', 'memberCount'],
        defaultSort: { field: 'createTime', desc: true },
        filters: {
          muted: filterBy.exact('muted'),
          status: filterBy.exact('status'),
          ...filterBy.dateRange('createTime'),
        },
      },
      groups,
    );
    this.bills = new Collection<BillRecord>({
      keywordFields: ['userAccount', 'remark', 'orderNo', 'nickname'],
      sortFields: ['id', 'createTime', 'amount'],
      defaultSort: { field: 'createTime', desc: true },
      filters: { type: filterBy.exact('type'), userId: filterBy.exact('userId'), ...filterBy.dateRange('createTime') },
      totals: ['amount'],
    });
    this.withdrawals = new Collection<WithdrawalRecord>({
      keywordFields: ['userAccount', 'accountInfo', 'orderNo', 'nickname', 'payeeName'],
      sortFields: ['id', 'createTime', 'reviewTime', 'amount'],
      defaultSort: { field: 'createTime', desc: true },
      filters: {
        state: filterBy.exact('state'),
        method: filterBy.exact('method'),
        userId: filterBy.exact('userId'),
        ...filterBy.dateRange('createTime'),
      },
      totals: ['amount', 'fee'],
    });
    const money = prng.fork(4);
    this.ledger = new Ledger(this.users, this.bills, this.withdrawals, money, prng.fork(12));
    seedMoney(money, this.ledger, walletUsers(prng.fork(7), users), this.groups.all(), now);
    this.deployment = new Deployment(this.runtime.fork(5), now);
    this.counters.unsyncedWithdrawals = prng.int(1, 4);

    const site = prng.fork(8);
    this.defaultFriends = new Collection(specFor(DEFAULT_FRIENDS), seedDefaultFriends(site, users, now));
    this.defaultGroups = new Collection(specFor(DEFAULT_GROUPS_RESOURCE), seedDefaultGroups(site, groups, now));
    this.defaultAvatars = new Collection(specFor(DEFAULT_AVATARS), seedDefaultAvatars(site, now));
    this.defaultEmoji = new Collection(specFor(DEFAULT_EMOJI), seedDefaultEmoji(site, now));
    this.securityQuestions = new Collection(specFor(SECURITY_QUESTIONS), seedSecurityQuestions(site));
    this.discover = new Collection(specFor(DISCOVER_ENTRIES), seedDiscover(site));
    this.announcements = new Collection(specFor(ANNOUNCEMENTS), seedAnnouncements(site, now));
    this.inviteCodes = new Collection(specFor(INVITE_CODES), seedInviteCodes(site, users, now));
    this.sensitiveWords = new Collection(specFor(SENSITIVE_WORDS), seedSensitiveWords(site, now));
    this.privilegedUsers = new Collection(specFor(PRIVILEGED_USERS), seedPrivilegedUsers(site, users, now));

    const operation = prng.fork(9);
    this.operationLog = new Collection(specFor(OPERATION_LOG), seedOperationLog(operation, users, now));
    this.ipBlacklist = new Collection(specFor(IP_BLACKLIST), seedIpBlacklist(operation, now));
    this.onlineSessions = new Collection(specFor(ONLINE_USERS), seedOnlineSessions(users));
    this.loginRecords = new Collection(specFor(LOGIN_RECORDS), seedLoginRecords(operation, users, now));
    this.massMessages = new Collection(specFor(MASS_MESSAGES), seedMassMessages(operation, users, now));
    this.suggestions = new Collection(specFor(SUGGESTIONS), seedSuggestions(operation, users, now));

    const finance = prng.fork(10);
    this.rechargeChannels = new Collection(specFor(RECHARGE_CHANNELS), seedRechargeChannels());
    const envelopes = seedRedEnvelopes(finance, this.bills.all(), users, groups, now);
    this.personalRedEnvelopes = new Collection(specFor(PERSONAL_RED_ENVELOPES), envelopes.personal);
    this.groupRedEnvelopes = new Collection(specFor(GROUP_RED_ENVELOPES), envelopes.group);
    this.appVersions = new Collection(specFor(APP_VERSIONS), seedAppVersions(finance, now));

    this.settings = defaultSettings();
    this.dataCleaner = new DataCleaner(prng.fork(11), users.length, now, HISTORY_DAYS, {
      loginRecords: { table: this.loginRecords as never, timeField: 'time', bytesEach: 160 },
      operationLogs: { table: this.operationLog as never, timeField: 'createTime', bytesEach: 220 },
    });
  }

  /**
   * The table of a list resource served from its declaration alone: its list semantics read off
   * the fields, its rows from the resource's seed (empty without one). Made once per resource.
   */
  table(resource: ListResource): Collection<GenericRow> {
    let table = this.tables.get(resource.id);
    if (!table) {
      const seed = this.seeds[resource.id];
      const rows = seed
        ? seed({
            prng: new Prng((this.seed ^ hashText(resource.id)) >>> 0),
            now: this.seededUntil,
            users: this.users.all(),
            groups: this.groups.all(),
          })
        : [];
      table = new Collection<GenericRow>(
        specFor(resource),
        rows.map((row) => ({ ...row })),
      );
      this.tables.set(resource.id, table);
    }
    return table;
  }

  pendingWithdrawalCount(): number {
    return this.withdrawals.count((w) => w.state === 'pending');
  }

  /** A new application arrives (the timer does this; tests may too). */
  addPendingWithdrawal(time = Date.now()): WithdrawalRecord {
    return this.ledger.applyRandomWithdrawal(time);
  }

  /** Pulls the applications waiting on the payment side into the review queue. */
  syncWithdrawals(time = Date.now()): number {
    const count = this.counters.unsyncedWithdrawals;
    for (let i = 0; i < count; i++) this.addPendingWithdrawal(time);
    this.counters.unsyncedWithdrawals = 0;
    return count;
  }

  userByAccount(account: string): UserRecord | undefined {
    return this.users.find((u) => u.account === account);
  }

  /** A user's login records, newest first (indexed once, rebuilt when the table changed size). */
  loginsOf(userId: number): R.LoginRecord[] {
    if (!this.loginIndex || this.loginIndex.size !== this.loginRecords.size) {
      const byUser = new Map<number, R.LoginRecord[]>();
      for (const record of this.loginRecords.all()) {
        const list = byUser.get(record.userId);
        if (list) list.push(record);
        else byUser.set(record.userId, [record]);
      }
      for (const list of byUser.values()) list.sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
      this.loginIndex = { size: this.loginRecords.size, byUser };
    }
    return this.loginIndex.byUser.get(userId) ?? [];
  }

  /** Appends to the operation log: every change made through the sandbox is recorded. */
  logOperation(entry: Omit<R.OperationLogRecord, 'id' | 'createTime'>, time = Date.now()): R.OperationLogRecord {
    return this.operationLog.insert({ ...entry, createTime: iso(time) });
  }
}

/** The users whose wallets have history: everyone in a small base, a fixed-size sample of a large one. */
function walletUsers(prng: Prng, users: readonly UserRecord[]): UserRecord[] {
  if (users.length <= MAX_WALLET_USERS) return [...users];
  const picked = new Set<number>();
  while (picked.size < MAX_WALLET_USERS) picked.add(prng.int(0, users.length - 1));
  return [...picked].sort((a, b) => a - b).map((i) => users[i]!);
}

export type { AdminAccount } from './accounts.js';
export type { BillRecord, GroupRecord, UserRecord, WithdrawalRecord } from './types.js';
export { Collection } from './collection.js';
