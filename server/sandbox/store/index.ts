import { Prng } from '../lib/prng.js';
import { type AdminAccount, Sessions, makeAdminAccounts } from './accounts.js';
import { Collection, filterBy } from './collection.js';
import { Deployment } from './deployment.js';
import { Ledger } from './ledger.js';
import { seedMoney } from './seed-money.js';
import { seedGroups, seedUsers } from './seed-people.js';
import type { BillRecord, GroupRecord, UserRecord, WithdrawalRecord } from './types.js';

export interface StoreOptions {
  seed: number;
  /** The moment the seeded history ends. */
  now: number;
  users?: number;
  groups?: number;
}

export const DEFAULT_USERS = 640;
export const DEFAULT_GROUPS = 90;

/**
 * Everything the sandbox backend knows. Tables are Collections so that the management pages added
 * later get paging, search and sorting for free; each page's routes live under its permission prefix.
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
  /** Draws made after seeding (ticks, monitoring drift), apart from the seeding stream. */
  readonly runtime: Prng;
  readonly counters = {
    /** How many times the pending-withdrawal count was asked for: the gateway's polls. */
    withdrawalCountPolls: 0,
    /** Applications waiting on the payment side until someone presses sync. */
    unsyncedWithdrawals: 0,
    withdrawalTicks: 0,
  };

  constructor(options: StoreOptions) {
    const prng = new Prng(options.seed);
    const { now } = options;
    this.seed = options.seed;
    this.runtime = prng.fork(1);
    this.accounts = makeAdminAccounts(now);
    this.sessions = new Sessions(this.accounts);

    const users = seedUsers(prng.fork(2), options.users ?? DEFAULT_USERS, now);
    this.users = new Collection<UserRecord>(
      {
        keywordFields: ['id', 'account', 'nickname', 'phone'],
        sortFields: ['id', 'account', 'registerTime', 'lastLoginTime', 'balance'],
        defaultSort: { field: 'registerTime', desc: true },
        filters: {
          status: filterBy.exact('status'),
          channel: filterBy.exact('channel'),
          online: filterBy.exact('online'),
          ...filterBy.dateRange('registerTime'),
        },
      },
      users,
    );
    this.groups = new Collection<GroupRecord>(
      {
        keywordFields: ['id', 'name', 'ownerAccount'],
        sortFields: ['id', 'createTime', 'memberCount'],
        defaultSort: { field: 'createTime', desc: true },
        filters: { muted: filterBy.exact('muted'), status: filterBy.exact('status'), ...filterBy.dateRange('createTime') },
      },
      seedGroups(prng.fork(3), options.groups ?? DEFAULT_GROUPS, users, now),
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
    this.ledger = new Ledger(this.users, this.bills, this.withdrawals, money);
    seedMoney(money, this.ledger, users, this.groups.all(), now);
    this.deployment = new Deployment(this.runtime.fork(5), now);
    this.counters.unsyncedWithdrawals = prng.int(1, 4);
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
}

export type { AdminAccount } from './accounts.js';
export type { BillRecord, GroupRecord, UserRecord, WithdrawalRecord } from './types.js';
export { Collection } from './collection.js';
