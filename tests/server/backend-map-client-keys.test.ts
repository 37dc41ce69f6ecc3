import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackendMap } from '../../server/backend-map/engine.js';
import { consoleCalls } from '../../server/backend-map/calls.js';
import { loadBackendMap } from '../../server/backend-map/load.js';
import {
  CALLS,
  GATEWAY_PATHS,
  WITHDRAWAL_REVIEW,
  resourceCalls,
  type AuditEntry,
} from '../../server/contract/index.js';
import { parseObjectId } from '../../sandbox/shiku/wire.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { REPO_ROOT } from '../support/paths.js';
import { SAME_ORIGIN, buildTestGateway } from './support/gateway.js';

/*
 * Issue 36 point 9: through a backend map, the backend acts on the record the trail names. The
 * request a map sends is built from the contract's members only; a member the map writes itself
 * (Shiku's `rechargeId`) is never taken from the client. Against the sandbox's Shiku dialect and
 * the shipped Shiku map.
 */

const SHIKU_MAP = path.join(REPO_ROOT, 'server/backend-map/bindings/shiku-im.json');
const REVIEW = resourceCalls(WITHDRAWAL_REVIEW);

let sandbox: StartedSandbox;
let app: FastifyInstance;
let cookies: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ dialect: 'shiku', withdrawalTickMs: 0 });
  app = await buildTestGateway({ CHAT_BACKEND_URL: sandbox.url, UPSTREAM_TIMEOUT_MS: '5000', BACKEND_MAP: SHIKU_MAP });
  const res = await app.inject({
    method: 'POST',
    url: CALLS.login,
    headers: SAME_ORIGIN,
    payload: { account: 'admin', password: 'admin123' },
  });
  expect(res.json(), res.body).toMatchObject({ code: 200 });
  cookies = Object.fromEntries(res.cookies.map((c) => [c.name, c.value]));
});

afterAll(async () => {
  await app?.close();
  await sandbox?.close();
});

const stateOf = (id: string) => {
  const number = parseObjectId('consume', id);
  return number === null ? undefined : sandbox.app.sandbox.withdrawals.get(number)?.state;
};

async function pendingIds(count: number): Promise<string[]> {
  const res = await app.inject({ method: 'GET', url: `${REVIEW.list}?pageNum=1&pageSize=50`, cookies });
  const rows = (res.json() as { data: { list: { id: string; state: string }[] } }).data.list;
  const ids = rows.filter((r) => r.state === 'pending').map((r) => String(r.id));
  expect(ids.length, res.body).toBeGreaterThanOrEqual(count);
  return ids.slice(0, count);
}

const post = (url: string, payload: object) =>
  app.inject({ method: 'POST', url, headers: SAME_ORIGIN, cookies, payload });

describe('a mapped call takes only the contract’s members from the client', () => {
  it('rejects the record the body names by id, not the one a client-sent rechargeId names, and the trail names it', async () => {
    const [x, y] = await pendingIds(2);
    const res = await post(REVIEW.action('reject'), { id: x, reason: 'r', rechargeId: y });
    expect(res.json(), res.body).toMatchObject({ code: 200 });
    expect(stateOf(x!)).toBe('rejected');
    expect(stateOf(y!)).toBe('pending');
    await expect
      .poll(async () => {
        const trail = await app.inject({
          method: 'GET',
          url: `${GATEWAY_PATHS.audit}?resource=${WITHDRAWAL_REVIEW.id}&action=reject`,
          cookies,
        });
        return (trail.json() as { data: { list: AuditEntry[] } }).data.list.map((e) => e.targets);
      })
      .toEqual([[x]]);
  });

  it('refuses a row action that names its record by id and in ids: the backend would read one of them', async () => {
    const [x, y] = await pendingIds(2);
    const res = await post(REVIEW.action('reject'), { id: x, ids: [y], reason: 'r' });
    expect(res.statusCode, res.body).toBe(400);
    expect(stateOf(x!)).toBe('pending');
    expect(stateOf(y!)).toBe('pending');
  });

  it('builds the backend request from the contract’s members and the map’s own values only', () => {
    const map = new BackendMap(loadBackendMap(SHIKU_MAP));
    const reject = consoleCalls(WITHDRAWAL_REVIEW).find((c) => c.action === 'reject')!;
    const prepared = map.prepare(reject, {
      id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
      reason: 'r',
      rechargeId: 'bbbbbbbbbbbbbbbbbbbbbbbb',
      auditStatus: 0,
      desc: 'not mine',
      access_token: 'stolen',
    });
    if (!('request' in prepared)) throw new Error('reject is bound in the Shiku map');
    const sent = new URLSearchParams(prepared.request.body!.text);
    expect(sent.getAll('rechargeId')).toEqual(['aaaaaaaaaaaaaaaaaaaaaaaa']);
    expect(sent.getAll('auditStatus')).toEqual(['2']);
    expect(sent.getAll('desc')).toEqual(['r']);
    expect(sent.has('access_token')).toBe(false);
  });
});
