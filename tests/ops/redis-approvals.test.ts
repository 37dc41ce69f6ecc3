import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { APPROVAL_CALLS } from '../../server/contract/index.js';
import { setPassword } from '../../sandbox/store/accounts.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { hasProgram, skipWithout } from '../support/ci.js';
import { RedisServer } from '../support/redis-server.js';
import { waitUntil } from '../support/wait.js';
import { logInInject } from '../support/login.js';
import {
  applyWithdrawal,
  approvalGateway,
  approvals,
  approve,
  heldId,
  logIn,
  post,
  withdrawal,
  type ApprovalGateway,
  type Cookies,
} from '../server/support/approvals-rig.js';

/**
 * Two gateways (replicas) in front of one sandbox backend, sharing holds through a real
 * redis-server on a free port: what one holds the other lists and confirms, two confirmations at
 * once send the call once, and while Redis is away nothing above the threshold is sent at all.
 */

const ABOVE = 100_000;
const skip = skipWithout(hasProgram('redis-server') ? [] : ['redis-server'], 'the tests of holds shared through Redis');

let redis: RedisServer;
let sandbox: StartedSandbox;
let a: ApprovalGateway;
let b: ApprovalGateway;

const logInAs = (app: FastifyInstance, account: string, password: string): Promise<Cookies> =>
  logInInject(app, { account, password });

describe.skipIf(skip)('holds shared by replicas through Redis', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    redis = await RedisServer.start({ password: 'approvals-redis-password' });
    sandbox = await startSandbox({ port: 0, withdrawalTickMs: 0 });
    // A third reviewer with a known password, so two second approvers can race.
    setPassword(
      sandbox.app.sandbox.accounts.find((x) => x.account === 'finance_li')!,
      'finance-li-123',
    );
    const env = { DUAL_CONTROL_ABOVE: String(ABOVE), REDIS_URL: redis.url };
    a = await approvalGateway(sandbox, env);
    b = await approvalGateway(sandbox, env);
    await waitUntil(() => !!a.app.redis?.available && !!b.app.redis?.available, 'both gateways connected to Redis');
  });

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await sandbox?.close();
    await redis?.close();
  });

  it('a hold made on one replica is listed and confirmed on the other', async () => {
    const record = applyWithdrawal(sandbox, ABOVE * 2);
    const id = heldId(await approve(a.app, await logIn(a.app, 'admin'), record.id));
    const checker = await logIn(b.app, 'checker');
    expect((await approvals(b.app, checker)).find((x) => x.id === id)).toMatchObject({
      targets: [String(record.id)],
      mine: false,
    });
    expect(withdrawal(sandbox, record.id).state).toBe('pending');
    expect((await post(b.app, checker, APPROVAL_CALLS.confirm(id))).body).toMatchObject({
      code: 200,
      data: { updated: 1 },
    });
    expect(withdrawal(sandbox, record.id)).toMatchObject({ state: 'approved', reviewer: 'checker' });
    expect(b.events.map((e) => e.type)).toEqual(['confirm']);
    expect(a.events.map((e) => e.type)).toEqual(['hold']);
    expect((await approvals(a.app, await logIn(a.app, 'admin'))).map((x) => x.id)).not.toContain(id);
  });

  it('the same records approved on both replicas make one hold', async () => {
    const record = applyWithdrawal(sandbox, ABOVE * 2);
    const first = heldId(await approve(a.app, await logIn(a.app, 'admin'), record.id));
    expect(heldId(await approve(b.app, await logIn(b.app, 'admin'), record.id))).toBe(first);
    expect(await approve(b.app, await logIn(b.app, 'checker'), record.id)).toMatchObject({
      status: 409,
      body: { error: 'APPROVAL_CONFLICT' },
    });
    await post(b.app, await logIn(b.app, 'checker'), APPROVAL_CALLS.decline(first), { reason: 'done with this test' });
  });

  it('two second approvers confirming at once on two replicas send the call once', async () => {
    const record = applyWithdrawal(sandbox, ABOVE * 2);
    const id = heldId(await approve(a.app, await logIn(a.app, 'admin'), record.id));
    const checker = await logIn(a.app, 'checker');
    const finance = await logInAs(b.app, 'finance_li', 'finance-li-123');
    const approveCalls = () =>
      sandbox.app.sandboxCalls.filter(
        (c) => c.method === 'POST' && c.path === '/manage/finance/cashWithdrawalCheck/approve',
      ).length;
    const before = approveCalls();
    const answers = await Promise.all([
      post(a.app, checker, APPROVAL_CALLS.confirm(id)),
      post(b.app, finance, APPROVAL_CALLS.confirm(id)),
    ]);
    const winners = answers.filter((x) => x.body.code === 200);
    const losers = answers.filter((x) => x.body.code !== 200);
    expect(winners).toHaveLength(1);
    expect(losers.map((x) => x.body.error)).toEqual([expect.stringMatching(/^APPROVAL_(CONFLICT|NOT_FOUND)$/)]);
    expect(approveCalls() - before).toBe(1);
    expect(withdrawal(sandbox, record.id).state).toBe('approved');
  });

  it('while Redis is away, approvals above the threshold are refused (503) and not sent; smaller ones go on', async () => {
    const admin = await logIn(a.app, 'admin');
    await redis.stop();
    try {
      await waitUntil(() => !a.app.redis!.available, 'the gateway to notice Redis is gone');
      const large = applyWithdrawal(sandbox, ABOVE * 2);
      expect(await approve(a.app, admin, large.id)).toMatchObject({
        status: 503,
        body: { code: 503, error: 'APPROVALS_UNAVAILABLE' },
      });
      expect(withdrawal(sandbox, large.id).state).toBe('pending');
      expect((await a.app.inject({ method: 'GET', url: APPROVAL_CALLS.list, cookies: admin })).statusCode).toBe(503);
      const small = applyWithdrawal(sandbox, ABOVE);
      expect((await approve(a.app, admin, small.id)).body).toMatchObject({ code: 200, data: { updated: 1 } });
    } finally {
      await redis.start();
    }
    await waitUntil(() => a.app.redis!.available, 'the gateway to reconnect');
    const large = applyWithdrawal(sandbox, ABOVE * 2);
    heldId(await approve(a.app, admin, large.id));
  });
});
