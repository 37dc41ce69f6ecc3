import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { ALL_PERMISSIONS, PERMISSIONS } from '../../contract/index.js';
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
  googleBound: boolean;
  enabled: boolean;
  createTime: number;
  lastLoginTime: number | null;
  lastLoginIp: string | null;
}

/** The pinned sandbox accounts (DESIGN section 1; named in the README). */
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
] as const;

// Small scrypt cost: the point is never storing a plain password, not resisting a cracking rig.
const SCRYPT = { N: 1024, r: 8, p: 1 } as const;

function hashPassword(password: string, salt: string): string {
  return scryptSync(password, salt, 32, SCRYPT).toString('hex');
}

export function makeAdminAccounts(now: number): Collection<AdminAccount> {
  const accounts = SANDBOX_ACCOUNTS.map((a, index) => {
    const salt = `sandbox-${a.account}`;
    return {
      id: index + 1,
      userId: String(index + 1),
      account: a.account,
      nickname: a.nickname,
      passwordSalt: salt,
      passwordHash: hashPassword(a.password, salt),
      permissions: [...a.permissions],
      googleBound: false,
      enabled: true,
      createTime: now - 200 * 24 * 3_600_000,
      lastLoginTime: null,
      lastLoginIp: null,
    } satisfies AdminAccount;
  });
  return new Collection<AdminAccount>(
    { keywordFields: ['account', 'nickname'], sortFields: ['id', 'account', 'createTime', 'lastLoginTime'], defaultSort: { field: 'id', desc: false } },
    accounts,
  );
}

export function passwordMatches(account: AdminAccount, password: string): boolean {
  const expected = Buffer.from(account.passwordHash, 'hex');
  const actual = Buffer.from(hashPassword(password, account.passwordSalt), 'hex');
  return timingSafeEqual(expected, actual);
}

export type TokenCheck =
  | { status: 'ok'; account: AdminAccount }
  | { status: 'elsewhere' }
  | { status: 'expired' };

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
    if (!account || !account.enabled || account.userId !== userId) return { status: 'expired' };
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
