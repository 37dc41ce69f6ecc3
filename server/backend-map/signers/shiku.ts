import { createHash } from 'node:crypto';
import type { Signer } from './signer.js';

/**
 * Shiku IM's console signature (docs/dialects/shiku-im.md §3): every call carries `access_token`,
 * `time` (epoch seconds, within 180 s of the server's clock) and
 * `secret = md5hex(apiKey + time + userId + access_token)`, where userId is the login answer's
 * `account`. The apiKey is the login answer's (kept as `apiKey`) or else the map's option.
 */

/** Paths Shiku's AuthorizationFilter lets through without token or signature. */
const EXEMPT_IN_CONSOLE = ['/console/login', '/pages'];
const EXEMPT_ELSEWHERE = ['/config', '/getCurrentTime', '/getImgCode', '/job'];

function exempt(path: string): boolean {
  if (EXEMPT_IN_CONSOLE.some((prefix) => path.startsWith(prefix))) return true;
  return !path.startsWith('/console') && EXEMPT_ELSEWHERE.some((prefix) => path.startsWith(prefix));
}

export function shikuSecret(apiKey: string, time: number, userId: string, token: string): string {
  return createHash('md5').update(`${apiKey}${time}${userId}${token}`, 'utf8').digest('hex');
}

export const shiku: Signer = {
  name: 'shiku',
  check(auth, options) {
    const own = options.apiKey;
    if (own !== undefined && (typeof own !== 'string' || own === '')) return 'options.apiKey must be a non-empty text';
    if (own === undefined && auth.login.answer.keep?.apiKey === undefined) {
      return 'needs the apiKey: keep it from the login answer (auth.login.answer.keep.apiKey) or set options.apiKey';
    }
    return null;
  },
  sign({ path, session, options, now }) {
    if (exempt(path)) return null;
    const apiKey = session.kept.apiKey ?? String(options.apiKey);
    const time = Math.floor(now / 1000);
    return {
      query: {
        access_token: session.token,
        time: String(time),
        secret: shikuSecret(apiKey, time, session.userId, session.token),
      },
    };
  },
};
