import { createHash, randomBytes } from 'node:crypto';
import { ALL_PERMISSIONS } from '../../contract/index.js';
import { SANDBOX_ACCOUNTS, type AdminAccount } from '../store/accounts.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import type { UserRecord } from '../store/types.js';
import { OpenImTokens } from './tokens.js';

/**
 * What OpenIM Chat keeps that the sandbox's store has no field for: admin user ids, levels, face
 * URLs and md5 passwords, users' md5 passwords, who blocked a user, the IP limit flags. The rows
 * themselves stay the store's, so the default dialect and this one read the same data.
 */

export const SUPER_ADMIN_LEVEL = 100;
export const NORMAL_ADMIN_LEVEL = 80;
/** `openIM.adminUserID` of `config/share.yml`: the seeded super admin's user id. */
export const IM_ADMIN_USER_ID = 'imAdmin';

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
