import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** What the sealed `token` cookie holds: the backend's token and what the gateway knows of it. */
export interface SealedSession {
  /** The backend's token, sent as w-token (or as the backend map's auth says). */
  token: string;
  /** The backend's user id, sent as w-userId (or as the backend map's auth says). */
  userId: string;
  /** Random id of this login, the handle logout revokes. */
  id: string;
  /** Login time, epoch ms (second precision once sealed). */
  issuedAt: number;
  /** Last call seen, epoch ms (second precision once sealed); refreshed at most about once a minute. */
  lastSeen: number;
  /** Values of the backend's login answer a backend map keeps (a role, an apiKey); absent when none. */
  kept?: Readonly<Record<string, string>>;
  /** The account the administrator logged in with (as typed, trimmed): who the audit trail and the error log name. */
  account?: string;
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The cookie name is authenticated with the payload, so a value sealed for another purpose never opens here. */
const AAD = Buffer.from('chat-admin-console session cookie token v1');
/** Bounds the work a forged cookie can cause; a real one is a few hundred characters. */
const MAX_SEALED_CHARS = 4_096;

/** A session id: 128 random bits. */
export function newSessionId(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * Seals sessions into cookie values with AES-256-GCM under a key derived (HKDF-SHA256) from
 * SESSION_SECRET. The value is authenticated, so any change, a value made under another secret
 * or a cookie of the old unsealed format fails to open and is refused without asking the backend.
 */
export class SessionSealer {
  private readonly key: Buffer;

  constructor(secret: Buffer) {
    if (secret.length < 32) throw new RangeError('the session secret must be at least 32 bytes');
    this.key = Buffer.from(hkdfSync('sha256', secret, 'chat-admin-console', 'session cookie v1', 32));
  }

  seal(session: SealedSession): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(AAD);
    const fields: unknown[] = [
      session.token,
      session.userId,
      session.id,
      Math.floor(session.issuedAt / 1000),
      Math.floor(session.lastSeen / 1000),
    ];
    // Only a map's login keeps values; the account follows them (null kept when none).
    const kept = session.kept && Object.keys(session.kept).length > 0 ? session.kept : null;
    if (session.account !== undefined) fields.push(kept, session.account);
    else if (kept) fields.push(kept);
    const payload = JSON.stringify(fields);
    const sealed = Buffer.concat([cipher.update(payload, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  }

  /** The session inside a cookie value, or null when the value was not sealed by this key as a session. */
  unseal(value: string): SealedSession | null {
    if (value.length > MAX_SEALED_CHARS || !value.startsWith(`${VERSION}.`)) return null;
    const bytes = Buffer.from(value.slice(VERSION.length + 1), 'base64url');
    if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
    let payload: unknown;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(AAD);
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
      payload = JSON.parse(text);
    } catch {
      return null;
    }
    if (!Array.isArray(payload) || payload.length < 5 || payload.length > 7) return null;
    const [token, userId, id, issuedAt, lastSeen, kept, account] = payload as unknown[];
    if (typeof token !== 'string' || typeof userId !== 'string' || typeof id !== 'string') return null;
    if (!Number.isSafeInteger(issuedAt) || !Number.isSafeInteger(lastSeen)) return null;
    const session: SealedSession = {
      token,
      userId,
      id,
      issuedAt: (issuedAt as number) * 1000,
      lastSeen: (lastSeen as number) * 1000,
    };
    if (payload.length === 7) {
      if (typeof account !== 'string') return null;
      session.account = account;
    }
    if (payload.length >= 6 && !(payload.length === 7 && kept === null)) {
      if (typeof kept !== 'object' || kept === null || Array.isArray(kept)) return null;
      const entries = Object.entries(kept);
      if (entries.some(([, value]) => typeof value !== 'string')) return null;
      session.kept = Object.fromEntries(entries) as Record<string, string>;
    }
    return session;
  }
}
