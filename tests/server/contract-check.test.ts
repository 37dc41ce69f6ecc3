import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_FUNCTIONS, USERS, WITHDRAWAL_CONFIG, resourceCalls } from '../../server/contract/index.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { trail } from './support/audit-rig.js';
import {
  REVIEW,
  applyWithdrawal,
  approvalGateway,
  approvals,
  get,
  logIn,
  post,
  withdrawal,
  type ApprovalGateway,
  type Cookies,
} from './support/approvals-rig.js';

/*
 * The contract's value rules at the gateway (plugins/contract-check.ts), through buildApp against
 * the sandbox with withdrawalConfig under dual control: a refused value answers 400 INVALID_VALUE
 * and is neither held, nor sent, nor recorded as a failed change.
 */

let sandbox: StartedSandbox;
let gw: ApprovalGateway;
let admin: Cookies;

const CONFIG = resourceCalls(WITHDRAWAL_CONFIG);
const USER_CALLS = resourceCalls(USERS);
/** A family: four people joined by zero-width joiners, one character to its reader, eleven UTF-16 units. */
const FAMILY = '👨‍👩‍👧‍👦';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, withdrawalTickMs: 0 });
  gw = await approvalGateway(sandbox, { DUAL_CONTROL_SETTINGS: 'withdrawalConfig' });
  admin = await logIn(gw.app, 'admin');
});

afterAll(async () => {
  await gw?.app.close();
  await sandbox?.close();
});

describe('a required value of only spaces', () => {
  it('is refused 400 before the backend, and leaves no failed entry in the trail', async () => {
    const record = applyWithdrawal(sandbox, 50_000);
    const before = (await trail(gw.app, admin)).total;
    const answer = await post(gw.app, admin, REVIEW.action('reject'), { id: record.id, reason: '   ' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 400,
      error: 'INVALID_VALUE',
      data: { field: 'reason', code: 'required' },
    });
    expect(withdrawal(sandbox, record.id).state).toBe('pending');
    expect((await trail(gw.app, admin)).total).toBe(before);

    // A real reason goes through, and is recorded.
    const sent = await post(gw.app, admin, REVIEW.action('reject'), { id: record.id, reason: 'Name mismatch' });
    expect(sent.body).toMatchObject({ code: 200 });
    expect(withdrawal(sandbox, record.id).state).toBe('rejected');
    expect((await trail(gw.app, admin)).total).toBe(before + 1);
  });
});

describe('a settings save that breaks a rule between its fields', () => {
  it('is refused 400 naming both fields, and is not held for a second approver', async () => {
    const current = (await get(gw.app, admin, CONFIG.config)).body.data as Record<string, unknown>;
    const answer = await post(gw.app, admin, CONFIG.config, {
      ...current,
      minAmount: 6_000_000,
      maxAmount: 5_000_000,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: 'INVALID_VALUE',
      data: { field: 'minAmount', code: 'exceedsField', limit: 'maxAmount' },
    });
    expect((await approvals(gw.app, admin)).filter((a) => a.resource === WITHDRAWAL_CONFIG.id)).toEqual([]);
    expect(sandbox.app.sandbox.settings.withdrawalConfig).toMatchObject({ minAmount: current.minAmount });

    // A maximum over the day's limit too.
    const daily = await post(gw.app, admin, CONFIG.config, { ...current, maxAmount: Number(current.dailyLimit) + 1 });
    expect(daily.body).toMatchObject({ data: { field: 'maxAmount', limit: 'dailyLimit' } });

    // Within the rules it is held, as before.
    const held = await post(gw.app, admin, CONFIG.config, { ...current, minAmount: Number(current.minAmount) + 100 });
    expect(held.body).toMatchObject({ code: 200, data: { held: true } });
  });
});

describe('a length limit', () => {
  it('counts the characters a reader sees: 33 families are refused for a limit of 32, 32 are saved whole', async () => {
    const user = sandbox.app.sandbox.users.all()[0]!;
    const over = await post(gw.app, admin, USER_CALLS.save, { id: user.id, nickname: FAMILY.repeat(33) });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ error: 'INVALID_VALUE', data: { field: 'nickname', code: 'tooLong' } });

    const within = await post(gw.app, admin, USER_CALLS.save, { id: user.id, nickname: FAMILY.repeat(32) });
    expect(within.body, JSON.stringify(within.body)).toMatchObject({ code: 200 });
    expect(sandbox.app.sandbox.users.get(user.id)!.nickname).toBe(FAMILY.repeat(32));
  });

  it('refuses a name of spaces on a settings screen', async () => {
    const site = await post(gw.app, admin, resourceCalls(SITE_FUNCTIONS).config, { chatRoomName: '   ' });
    expect(site.body).toMatchObject({ error: 'INVALID_VALUE', data: { field: 'chatRoomName', code: 'required' } });
  });
});
