import { createHmac, timingSafeEqual } from 'node:crypto';
import { OPENIM_CODES, OpenImError } from './envelope.js';

/**
 * Admin tokens as OpenIM Chat issues them: an HS256 JWT with claims `UserID`, `UserType` (2 for
 * admins), `PlatformID` (0), `exp`, `nbf` (a minute back) and `iat`, signed with the default secret
 * `chat123`, valid 90 days (`pkg/common/tokenverify/token_verify.go`, `config/chat-rpc-admin.yml`),
 * and also kept per user in a token set (Redis `CHAT_UID_TOKEN_STATUS:<userID>`,
 * `pkg/common/db/database/admin.go` `CacheToken`): a token missing from it is refused. A new
 * login adds a token; it never kicks the older ones.
 */

export const ADMIN_USER_TYPE = 2;
const NORMAL_USER_TYPE = 1;
const SECRET = 'chat123';
const LIFETIME_SECONDS = 90 * 24 * 3600;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sign = (text: string, secret = SECRET) => createHmac('sha256', secret).update(text).digest();

/** A signed token alone, kept nowhere. */
export function signToken(userID: string, userType: number, nowMs: number, secret = SECRET): string {
  const now = Math.floor(nowMs / 1000);
  // Key order as Go's encoder writes the claims struct: its own fields, then RegisteredClaims.
  const claims = {
    UserID: userID,
    UserType: userType,
    PlatformID: 0,
    exp: now + LIFETIME_SECONDS,
    nbf: now - 60,
    iat: now,
  };
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${head}.${sign(head, secret).toString('base64url')}`;
}

export interface TokenOwner {
  userID: string;
  userType: number;
}

export class OpenImTokens {
  /** userID → its live tokens (the value mirrors OpenIM's token status, 0 = normal). */
  private readonly sets = new Map<string, Map<string, number>>();

  /**
   * OpenIM Chat's tokens by default; OpenIM Server's (`/auth/get_admin_token`, the `imToken`) are
   * signed with its own secret (`openIM123`, `config/share.yml`) and a token it does not keep is
   * 1507 `TokenNotExistError` there (`internal/rpc/auth/auth.go` `parseToken`).
   */
  constructor(
    private readonly secret = SECRET,
    private readonly notExistCode: number = OPENIM_CODES.tokenNotExist,
  ) {}

  create(userID: string, userType: number, nowMs = Date.now()): string {
    const token = signToken(userID, userType, nowMs, this.secret);
    const set = this.sets.get(userID) ?? new Map<string, number>();
    set.set(token, 0);
    this.sets.set(userID, set);
    return token;
  }

  /** Drops every token of the user (`InvalidateToken`, called by a password reset). */
  invalidate(userID: string): void {
    this.sets.delete(userID);
  }

  /**
   * `ParseToken` then the middleware's checks (`internal/api/mw/mw.go`): empty → 1001, not a JWT →
   * 1503, bad signature or unknown type → 1505, expired → 1501, not in the set → 20101.
   */
  parse(token: string | undefined, nowMs = Date.now()): TokenOwner {
    if (!token) throw new OpenImError(OPENIM_CODES.args, 'token is empty');
    const parts = token.split('.');
    const claims = parts.length === 3 ? decode(parts[1]!) : null;
    if (!claims || decode(parts[0]!) === null) throw new OpenImError(OPENIM_CODES.tokenMalformed, '');
    const expected = sign(`${parts[0]}.${parts[1]}`, this.secret);
    const given = Buffer.from(parts[2]!, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new OpenImError(OPENIM_CODES.tokenUnknown, '');
    const now = Math.floor(nowMs / 1000);
    if (typeof claims.exp === 'number' && claims.exp < now) throw new OpenImError(OPENIM_CODES.tokenExpired, '');
    if (typeof claims.nbf === 'number' && claims.nbf > now) throw new OpenImError(1504, '');
    if (claims.PlatformID !== undefined && claims.PlatformID !== 0)
      throw new OpenImError(OPENIM_CODES.tokenExpired, '');
    const userID = typeof claims.UserID === 'string' ? claims.UserID : '';
    const userType = typeof claims.UserType === 'number' ? claims.UserType : 0;
    if (userType !== ADMIN_USER_TYPE && userType !== NORMAL_USER_TYPE)
      throw new OpenImError(OPENIM_CODES.tokenUnknown, 'token type unknown');
    const status = this.sets.get(userID)?.get(token);
    if (status === undefined) throw new OpenImError(this.notExistCode, '');
    if (status !== 0) throw new OpenImError(OPENIM_CODES.tokenExpired, '');
    return { userID, userType };
  }
}

function decode(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
