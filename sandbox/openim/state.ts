import { createHash, randomBytes } from 'node:crypto';
import { ALL_PERMISSIONS } from '../../server/contract/index.js';
import { SANDBOX_ACCOUNTS, type AdminAccount } from '../store/accounts.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import type { UserRecord } from '../store/types.js';
import { OpenImTokens } from './tokens.js';
import { OPENIM_CODES } from './envelope.js';

/**
 * What OpenIM Chat keeps that the sandbox's store has no field for: admin user ids, levels, face
 * URLs and md5 passwords, users' md5 passwords, who blocked a user, the IP limit flags. The rows
 * themselves stay the store's, so the default dialect and this one read the same data.
 */

export const SUPER_ADMIN_LEVEL = 100;
export const NORMAL_ADMIN_LEVEL = 80;
/** `openIM.adminUserID` of `config/share.yml`: the seeded super admin's user id. */
export const IM_ADMIN_USER_ID = 'imAdmin';

/** OpenIM Server's default `secret` (`config/share.yml`), which signs its tokens. */
const IM_SECRET = 'openIM123';
/** The claim our token parser reads as a user's type: OpenIM Server's claims carry none, a plain user's 1 reads alike. */
const IM_ADMIN_PLATFORM_USER_TYPE = 1;
const IM_TOKEN_CACHE_MS = 4 * 60 * 1000;

export const md5hex = (text: string) => createHash('md5').update(text).digest('hex');

export interface AdminProfile {
  userID: string;
  /** Lower-case md5 hex of the plain password, compared verbatim at login. */
  password: string;
  level: number;
  faceURL: string;
}

export interface BlockMark {
  reason: string;
  opUserID: string;
  createTime: number;
}

export class OpenImState {
  readonly tokens = new OpenImTokens();
  /** OpenIM Server's tokens (the sandbox's IM service, im-server.ts): its own secret, 1507 for one it does not keep. */
  readonly imTokens = new OpenImTokens(IM_SECRET, OPENIM_CODES.imTokenNotExist);
  private imCached: { token: string; until: number } | null = null;
  private readonly admins = new Map<number, AdminProfile>();
  /** Users' md5 passwords, set by a reset; the store keeps none (nobody logs in as a chat user here). */
  readonly userPasswords = new Map<string, string>();
  /** Who blocked whom, and blocks of ids the store does not know (OpenIM's BlockUser never checks the user exists). */
  readonly blocks = new Map<string, BlockMark>();
  /** limitRegister / limitLogin per IP; a seeded blacklist entry refuses both. */
  readonly ipLimits = new Map<string, { limitRegister: boolean; limitLogin: boolean }>();
  /** Client-config keys named like a store setting that is no client config (`registerEnabled`): kept here. */
  readonly clientConfigApart = new Map<string, string>();

  constructor(readonly store: SandboxStore) {}

  /**
   * The account's OpenIM side, made on first use: the full-permission account is the seeded super
   * admin (level 100, user id `imAdmin`), every other one a normal admin (level 80) with a
   * ten-digit user id like `genUserID` makes. Seeded passwords are md5 of the known plain text; a
   * colleague's is unknowable, as in the default dialect.
   */
  profile(account: AdminAccount): AdminProfile {
    let profile = this.admins.get(account.id);
    if (!profile) {
      const super_ = ALL_PERMISSIONS.every((p) => account.permissions.includes(p));
      const known = SANDBOX_ACCOUNTS.find((a) => a.account === account.account);
      profile = {
        userID:
          super_ && account.builtIn
            ? IM_ADMIN_USER_ID
            : String(1_000_000_000 + ((account.id * 2_654_435_761) % 8_999_999_999)),
        password: known ? md5hex(known.password) : randomBytes(16).toString('hex'),
        level: super_ ? SUPER_ADMIN_LEVEL : NORMAL_ADMIN_LEVEL,
        faceURL: '',
      };
      this.admins.set(account.id, profile);
    }
    return profile;
  }

  /**
   * The `imToken` of an admin login: chat's `ImAdminTokenWithDefaultAdmin` asks OpenIM Server's
   * `/auth/get_admin_token` for `imAdmin` and reuses the answer for four minutes
   * (`pkg/common/imapi/caller.go` `GetAdminTokenCache`); OpenIM Server keeps every token it issues.
   */
  imAdminToken(now: number): string {
    if (this.imCached && this.imCached.until > now) return this.imCached.token;
    const token = this.imTokens.create(IM_ADMIN_USER_ID, IM_ADMIN_PLATFORM_USER_TYPE, now);
    this.imCached = { token, until: now + IM_TOKEN_CACHE_MS };
    return token;
  }

  setProfile(account: AdminAccount, profile: AdminProfile): void {
    this.admins.set(account.id, profile);
  }

  adminByAccount(name: string): AdminAccount | undefined {
    return this.store.accounts.find((a) => a.account === name);
  }

  adminByUserID(userID: string): AdminAccount | undefined {
    return this.store.accounts.find((a) => this.profile(a).userID === userID);
  }

  /** Chat user ids are the store's user numbers written as text. */
  userByID(userID: string): UserRecord | undefined {
    return /^[1-9]\d{0,15}$/.test(userID) ? this.store.users.get(Number(userID)) : undefined;
  }

  isBlocked(userID: string): boolean {
    const user = this.userByID(userID);
    return user ? user.status === 'banned' : this.blocks.has(userID);
  }
}
