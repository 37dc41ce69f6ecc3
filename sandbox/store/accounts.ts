import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { ADMIN_STATUSES } from '../../server/contract/index.js';
import { ALL_PERMISSIONS, PERMISSIONS } from '../../server/contract/index.js';
import { DAY, iso } from '../lib/time.js';
import { Collection } from './collection.js';

/** An administrator of the console (the /manage/management/adminUser page lists these). */
export interface AdminAccount {
  id: number;
  /** Sent back by logIn as data.userId: always a string. */
  userId: string;
  account: string;
  nickname: string;
  passwordSalt: string;
  passwordHash: string;
  permissions: string[];
  status: (typeof ADMIN_STATUSES)[number];
  googleBound: boolean;
  /** Base32 authenticator secret while bound; never answered after the bind call. */
  googleSecret: string | null;
  /** A secret handed out by bind or reset, bound once the administrator proves it with a code. */
  googlePendingSecret: string | null;
  boundTime: string | null;
  /** The pinned accounts (admin, operator): never deleted. */
  builtIn: boolean;
  createTime: string;
  lastLoginTime: string | null;
  lastLoginIp: string | null;
}

/** The sandbox's fixed accounts: operators and tests rely on them (named in the README). */
export const SANDBOX_ACCOUNTS = [
  { account: 'admin', password: 'admin123', nickname: 'Administrator', permissions: [...ALL_PERMISSIONS] },
  {
    account: 'operator',
    password: 'operator123',
    nickname: 'Operator',
    permissions: [
      PERMISSIONS.userProfile,
      PERMISSIONS.groupProfile,
      PERMISSIONS.sensitiveWord,
      PERMISSIONS.onlineStatistics,
      PERMISSIONS.billRecord,
    ],
  },
  // The second approver of two-person approval: every finance screen, nothing else.
  {
    account: 'checker',
    password: 'checker123',
    nickname: 'Checker',
    permissions: ALL_PERMISSIONS.filter((p) => p.startsWith('/manage/finance/')),
  },
] as const;

// Small scrypt cost: the point is never storing a plain password, not resisting a cracking rig.
const SCRYPT = { N: 1024, r: 8, p: 1 } as const;

function hashPassword(password: string, salt: string): string {
  return scryptSync(password, salt, 32, SCRYPT).toString('hex');
}

/** Further administrators of a team that has used the console for a while (not named in the README). */
const STAFF = [
  {
    account: 'finance_li',
    nickname: '李会计',
    permissions: [
      PERMISSIONS.cashWithdrawalCheck,
      PERMISSIONS.billRecord,
      PERMISSIONS.userRedPack,
      PERMISSIONS.groupRedPack,
      PERMISSIONS.userBalance,
    ],
    status: 'enabled',
    ageDays: 160,
    google: true,
  },
  {
    account: 'support_tanaka',
    nickname: '田中サポート',
    permissions: [
      PERMISSIONS.userProfile,
      PERMISSIONS.groupProfile,
      PERMISSIONS.distributionAddress,
      PERMISSIONS.loginStatistics,
    ],
    status: 'enabled',
    ageDays: 120,
    google: false,
  },
  {
    account: 'ops_garcia',
    nickname: 'Lucía García',
    permissions: [
      PERMISSIONS.onlineStatistics,
      PERMISSIONS.massMessage,
      PERMISSIONS.dataClean,
      PERMISSIONS.frequencyLimit,
      PERMISSIONS.dailyStatistics,
      PERMISSIONS.channelStatistics,
    ],
    status: 'enabled',
    ageDays: 90,
    google: true,
  },
  {
    account: 'intern_wang',
    nickname: '王实习',
    permissions: [PERMISSIONS.sensitiveWord, PERMISSIONS.siteAnnouncement],
    status: 'disabled',
    ageDays: 60,
    google: false,
  },
] as const;

export function makeAdminAccounts(now: number): Collection<AdminAccount> {
  const pinned = SANDBOX_ACCOUNTS.map((a) => ({
    ...a,
    status: 'enabled' as const,
    ageDays: 200,
    google: false,
    builtIn: true,
  }));
  // Colleagues' passwords are theirs: nothing anyone could type matches until an admin resets one.
  const staff = STAFF.map((a) => ({ ...a, password: null, builtIn: false }));
  const accounts = [...pinned, ...staff].map((a, index) => {
    const salt = `sandbox-${a.account}`;
    const created = now - a.ageDays * DAY;
    return {
      id: index + 1,
      userId: String(index + 1),
      account: a.account,
      nickname: a.nickname,
      passwordSalt: salt,
      passwordHash: a.password === null ? randomBytes(32).toString('hex') : hashPassword(a.password, salt),
      permissions: [...a.permissions],
      status: a.status,
      googleBound: a.google,
      googleSecret: a.google ? base32Secret(randomBytes(20)) : null,
      googlePendingSecret: null,
      boundTime: a.google ? iso(created + 2 * DAY) : null,
      builtIn: a.builtIn,
      createTime: iso(created),
      lastLoginTime: a.builtIn ? null : iso(now - (index + 1) * 7 * 3_600_000),
      lastLoginIp: a.builtIn ? null : `203.0.113.${10 + index}`,
    } satisfies AdminAccount;
  });
  return new Collection<AdminAccount>(
    {
      keywordFields: ['account', 'nickname'],
      sortFields: ['id', 'account', 'createTime', 'lastLoginTime'],
      defaultSort: { field: 'id', desc: false },
    },
    accounts,
  );
}

/** A new administrator from the console's form; answers the stored account. */
export function createAdmin(
  accounts: Collection<AdminAccount>,
  fields: {
    account: string;
    nickname: string;
    password: string;
    permissions: string[];
    status: AdminAccount['status'];
  },
  now: number,
): AdminAccount {
  const salt = randomBytes(12).toString('hex');
  const created = accounts.insert({
    userId: '',
    account: fields.account,
    nickname: fields.nickname,
    passwordSalt: salt,
    passwordHash: hashPassword(fields.password, salt),
    permissions: [...fields.permissions],
    status: fields.status,
    googleBound: false,
    googleSecret: null,
    googlePendingSecret: null,
    boundTime: null,
    builtIn: false,
    createTime: iso(now),
    lastLoginTime: null,
    lastLoginIp: null,
  });
  created.userId = String(created.id);
  return created;
}

export function setPassword(account: AdminAccount, password: string): void {
  account.passwordSalt = randomBytes(12).toString('hex');
  account.passwordHash = hashPassword(password, account.passwordSalt);
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding, as authenticator apps read secrets. */
export function base32Secret(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function passwordMatches(account: AdminAccount, password: string): boolean {
  const expected = Buffer.from(account.passwordHash, 'hex');
  const actual = Buffer.from(hashPassword(password, account.passwordSalt), 'hex');
  return timingSafeEqual(expected, actual);
}

export type TokenCheck = { status: 'ok'; account: AdminAccount } | { status: 'elsewhere' } | { status: 'expired' };

/** Replaced tokens remembered, so a stale tab learns it was logged out elsewhere rather than "expired". */
const REPLACED_MEMORY = 10_000;

/**
 * One live token per account, as the chat backend does: a new login replaces the previous token,
 * whose holder then hears "logged in elsewhere".
 */
export class Sessions {
  private readonly live = new Map<string, number>();
  private readonly current = new Map<number, string>();
  private readonly replaced = new Map<string, number>();

  constructor(private readonly accounts: Collection<AdminAccount>) {}

  open(account: AdminAccount): string {
    const previous = this.current.get(account.id);
    if (previous !== undefined) {
      this.live.delete(previous);
      this.replaced.set(previous, account.id);
      if (this.replaced.size > REPLACED_MEMORY) {
        const oldest = this.replaced.keys().next().value;
        if (oldest !== undefined) this.replaced.delete(oldest);
      }
    }
    const token = randomBytes(24).toString('base64url');
    this.live.set(token, account.id);
    this.current.set(account.id, token);
    return token;
  }

  check(token: string | undefined, userId: string | undefined): TokenCheck {
    if (!token) return { status: 'expired' };
    const accountId = this.live.get(token);
    if (accountId === undefined) return this.replaced.has(token) ? { status: 'elsewhere' } : { status: 'expired' };
    const account = this.accounts.get(accountId);
    if (!account || account.status !== 'enabled' || account.userId !== userId) return { status: 'expired' };
    return { status: 'ok', account };
  }

  /** Ends every session of the account (disabled, deleted or password changed). */
  revoke(accountId: number): void {
    const token = this.current.get(accountId);
    if (token === undefined) return;
    this.live.delete(token);
    this.current.delete(accountId);
  }
}
