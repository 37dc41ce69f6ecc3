import type { IncomingMessage, ServerResponse } from 'node:http';
import { CALLS } from '../../../server/contract/index.js';

/**
 * Sessions in the bench. The gateway takes only a session it sealed at a login, so each bench
 * backend answers the login (the account names the token it hands out) and the bench logs in
 * through the gateway before it measures, as a browser would.
 */

/** Answers POST /manage/logIn with token = the account and userId 1; false for any other call. */
export function answerBenchLogin(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== CALLS.login) return false;
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const { account } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { account?: string };
    const text = JSON.stringify({ code: 200, msg: 'ok', data: { token: account || 'bench', userId: 1 } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
  return true;
}

/**
 * Logs in through the gateway at `baseUrl` as the backend token `token`; returns the Cookie
 * header. A session's cookie is re-sealed once a minute of use: log in again before each run.
 */
export async function benchLogIn(baseUrl: string, token: string): Promise<string> {
  const res = await fetch(`${baseUrl}${CALLS.login}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ account: token, password: 'bench', code: '' }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .join('; ');
  if (res.status !== 200 || !/(^|; )token=[^;]+/.test(cookie))
    throw new Error(`the bench login through ${baseUrl} failed: HTTP ${res.status} ${await res.text()}`);
  return cookie;
}
