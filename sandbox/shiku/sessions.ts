import { randomUUID } from 'node:crypto';
import { ALL_PERMISSIONS, PERMISSIONS } from '../../server/contract/index.js';
import type { AdminAccount } from '../store/accounts.js';
import { SANDBOX_ACCOUNTS, createAdmin } from '../store/accounts.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import { md5hex } from './wire.js';

/** KConstants.Expire.HALF_AN_HOUR: an admin token lives 1800 s from its login, not extended by use. */
export const TOKEN_TTL_MS = 1800_000;

/** KConstants.Admin_Role. */
export const ROLE = {
  tourist: 1,
  publicAccount: 2,
  robot: 3,
  customerService: 4,
  admin: 5,
  superAdmin: 6,
  finance: 7,
} as const;
/** `RoleManagerImpl.getUserRole(userId, null, 5)` matches these only: public accounts and robots cannot log in. */
export const LOGIN_ROLES: ReadonlySet<number> = new Set([1, 4, 5, 6, 7]);

/**
 * Shiku has roles, the sandbox has permission lists: an administrator gets the role whose rights
 * its list covers. Everything → super admin; the withdrawal review → finance; users, groups and
 * sensitive words → admin; users or groups → customer service; anything less → tourist.
 */
export function roleOf(account: AdminAccount): number {
  const set = grantedRoles.get(account);
  if (set !== undefined) return set;
  const has = (p: string) => account.permissions.includes(p);
  if (ALL_PERMISSIONS.every(has)) return ROLE.superAdmin;
  if (has(PERMISSIONS.cashWithdrawalCheck)) return ROLE.finance;
  if (has(PERMISSIONS.userProfile) && has(PERMISSIONS.groupProfile) && has(PERMISSIONS.sensitiveWord))
    return ROLE.admin;
  if (has(PERMISSIONS.userProfile) || has(PERMISSIONS.groupProfile)) return ROLE.customerService;
  return ROLE.tourist;
}

/**
 * Roles granted through addAdmin: kept beside the account because a permission list cannot say
 * "public account" or "robot" (2, 3), and a granted 5 must stay 5 whatever the list grows into.
 */
const grantedRoles = new WeakMap<AdminAccount, number>();

/** The permission list that reads back as `role` through roleOf, for the contract's own screens. */
export function permissionsFor(role: number): string[] {
  if (role === ROLE.superAdmin) return [...ALL_PERMISSIONS];
  if (role === ROLE.finance)
    return [
      PERMISSIONS.cashWithdrawalCheck,
      PERMISSIONS.billRecord,
      PERMISSIONS.userRedPack,
      PERMISSIONS.groupRedPack,
      PERMISSIONS.userBalance,
    ];
  if (role === ROLE.admin) return [PERMISSIONS.userProfile, PERMISSIONS.groupProfile, PERMISSIONS.sensitiveWord];
  if (role === ROLE.customerService) return [PERMISSIONS.userProfile, PERMISSIONS.groupProfile];
  return [];
}

export function grantRole(account: AdminAccount, role: number): void {
  grantedRoles.set(account, role);
  account.permissions = permissionsFor(role);
}

/** Shiku's seeded super admin (InitializationData.initSuperAdminData): user 1000, password "1000". */
export const SHIKU_SUPER_ADMIN = { account: '1000', password: '1000', userId: '1000' } as const;

/**
 * The `user.password` Shiku compares verbatim with the login's md5: the sandbox keeps scrypt
 * hashes only, so the md5 is known for the accounts whose plain password is public (the README's
 * and Shiku's own) and for passwords set through this dialect.
 */
export class ShikuPasswords {
  private readonly md5 = new Map<number, string>();

  constructor(store: SandboxStore, now: number) {
    for (const known of SANDBOX_ACCOUNTS) {
      const account = store.accounts.find((a) => a.account === known.account);
      if (account) this.md5.set(account.id, md5hex(known.password));
    }
    // Seeded for this dialect only, so the other dialects' administrator lists stay as they were.
    let shiku = store.accounts.find((a) => a.account === SHIKU_SUPER_ADMIN.account);
    if (!shiku) {
      shiku = createAdmin(
        store.accounts,
        {
          account: SHIKU_SUPER_ADMIN.account,
          nickname: '1000',
          password: SHIKU_SUPER_ADMIN.password,
          permissions: [...ALL_PERMISSIONS],
          status: 'enabled',
        },
        now,
      );
      shiku.userId = SHIKU_SUPER_ADMIN.userId;
      shiku.builtIn = true;
    }
    this.md5.set(shiku.id, md5hex(SHIKU_SUPER_ADMIN.password));
  }

  matches(account: AdminAccount, md5: string): boolean {
    const stored = this.md5.get(account.id);
    return stored !== undefined && stored === md5;
  }

  set(account: AdminAccount, md5: string): void {
    this.md5.set(account.id, md5);
  }
}

interface Live {
  accountId: number;
  expiresAt: number;
}

/** Redis `adminToken:token:<userId>` and `adminToken:userId:<token>`, both with the login's expiry. */
export class ShikuSessions {
  private readonly byToken = new Map<string, Live>();
  private readonly byAccount = new Map<number, string>();

  constructor(private readonly clock: () => number) {}

  /** `adminLoginSaveToken`: the live token again if there is one, its 30 minutes restarted. */
  open(account: AdminAccount): string {
    const now = this.clock();
    let token = this.byAccount.get(account.id);
    if (token === undefined || !this.byToken.has(token) || this.byToken.get(token)!.expiresAt <= now) {
      // StringUtil.randomUUID: a UUID without its dashes.
      token = randomUUID().replaceAll('-', '');
    }
    this.byToken.set(token, { accountId: account.id, expiresAt: now + TOKEN_TTL_MS });
    this.byAccount.set(account.id, token);
    return token;
  }

  accountOf(token: string): number | null {
    const live = this.byToken.get(token);
    if (!live) return null;
    if (live.expiresAt <= this.clock()) {
      this.byToken.delete(token);
      return null;
    }
    return live.accountId;
  }

  /** `removeAdminToken(userId)`. */
  close(accountId: number): void {
    const token = this.byAccount.get(accountId);
    if (token !== undefined) this.byToken.delete(token);
    this.byAccount.delete(accountId);
  }
}
