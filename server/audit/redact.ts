import { AUDIT_SECRET_CHANGED, type AuditRecord, type AuditValue } from '../contract/audit.js';
import { looksLikeUrl, withoutUrlSecrets } from '../lib/url-secrets.js';

/**
 * What may go into an entry. An audit trail is read by more people, and kept longer, than the
 * values it describes, so it never holds a secret: no password, token, key secret or one-time code,
 * whatever the field is called by the contract or by a backend map. Values are bounded too, so
 * one call cannot write a megabyte into the trail.
 */

/** Names that hold secrets, whatever resource they come from. */
const SECRET_NAME =
  /pass(word|wd)?$|^pwd$|secret|token|otp|captcha|credential|private.?key|api.?key|signature|^(auth|verify|verification|sms|google|mfa|totp)?_?code$/i;

const MAX_TEXT = 500;
const MAX_ITEMS = 50;
const MAX_KEYS = 100;
const MAX_DEPTH = 3;

export function isSecretName(name: string, secretFields: ReadonlySet<string> = new Set()): boolean {
  return secretFields.has(name) || SECRET_NAME.test(name);
}

export function boundedText(text: string, max = MAX_TEXT): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A value as an entry may hold it: bounded in length, items, keys and depth; secrets inside objects left out. */
export function boundedValue(
  value: unknown,
  secretFields: ReadonlySet<string> = new Set(),
  depth = 0,
): AuditValue | undefined {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return boundedText(looksLikeUrl(value) ? withoutUrlSecrets(value) : value);
  if (depth >= MAX_DEPTH) return boundedText(JSON.stringify(value) ?? '');
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => boundedValue(item, secretFields, depth + 1) ?? null);
    if (value.length > MAX_ITEMS) items.push(`… ${value.length - MAX_ITEMS} more`);
    return items;
  }
  return recordOf(value as Record<string, unknown>, secretFields, depth + 1);
}

/**
 * An object's members as an entry may hold them: a secret member becomes AUDIT_SECRET_CHANGED when
 * it carries a value (a new password was set) and is left out when empty (kept as it was). A yes
 * or no under a secret's name is kept as it is: it tells no secret (a held change's `secret: false`
 * flag, an `otpEnabled` switch), and `[changed]` in its place would read as a change that was not.
 */
export function recordOf(
  value: Record<string, unknown>,
  secretFields: ReadonlySet<string> = new Set(),
  depth = 0,
): AuditRecord {
  const out: AuditRecord = {};
  let keys = 0;
  for (const key of Object.keys(value)) {
    if (keys >= MAX_KEYS) break;
    const member = value[key];
    if (isSecretName(key, secretFields) && typeof member !== 'boolean') {
      if (member !== undefined && member !== null && member !== '') out[key] = AUDIT_SECRET_CHANGED;
      keys++;
      continue;
    }
    const bounded = boundedValue(member, secretFields, depth);
    if (bounded === undefined) continue;
    out[key] = bounded;
    keys++;
  }
  return out;
}
