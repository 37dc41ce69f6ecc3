import type { CallOptions, RawAnswer } from '../lib/upstream.js';
import { readBackendJson } from '../lib/backend-json.js';
import type { BackendAuth, ConsoleLogin, LoginOutcome } from './auth.js';
import { backendClockSkew, withSkew } from './clock.js';

/** Sends one request to the backend: the gateway adds the browser's forwarding headers, the probe none. */
export type SendLogin = (path: string, init: Pick<CallOptions, 'method' | 'headers' | 'rawBody'>) => Promise<RawAnswer>;

/**
 * A login the map's way (`auth.login`): the backend's clock read first when the map says where
 * (its times are then corrected by the skew), the login call with the map's headers (a Basic
 * login's credentials travel only there) and its answer read with its HTTP status. The gateway's
 * login and `npm run probe` both log in through here, so the probe never logs in otherwise than
 * the console would.
 */
export async function mapLogin(
  auth: BackendAuth,
  form: ConsoleLogin,
  send: SendLogin,
  decode: (answer: RawAnswer, path: string) => Promise<Buffer>,
): Promise<LoginOutcome> {
  // A clock that cannot be read leaves the times uncorrected: the login then says whether the backend is there.
  const skew = auth.map.clock
    ? await backendClockSkew(auth.map.clock, async (method, path) =>
        readBackendJson(decode, await send(path, { method }), method, path),
      ).catch(() => 0)
    : 0;
  const sent = auth.loginRequest(form);
  const answer = await send(sent.path, {
    method: sent.method,
    ...(sent.headers ? { headers: sent.headers } : {}),
    ...(sent.body ? { rawBody: sent.body } : {}),
  });
  const json = await readBackendJson(decode, answer, sent.method, sent.path);
  return withSkew(auth.readLogin(json, answer.status, sent), skew);
}
