import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GATEWAY_PATHS,
  SMS_CONFIG,
  WITHDRAWAL_REVIEW,
  resourceCalls,
  type AuditEntry,
} from '../../server/contract/index.js';
import { normalisedId } from '../../server/approvals/held-body.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import {
  REVIEW,
  applyWithdrawal,
  approvalGateway,
  approvals,
  approve,
  get,
  heldId,
  logIn,
  post,
  withdrawal,
  type ApprovalGateway,
  type Cookies,
} from './support/approvals-rig.js';

/*
 * Issue 36, points 2-5 and 10: what a held call's body may be. Every id the body names is judged,
 * in the contract's shape and spelling, before any hold decision; a state the gateway does not know
 * holds; a settings secret in another type is refused. Against the sandbox, whose own state says
 * what reached it.
 */

let sandbox: StartedSandbox;
let gw: ApprovalGateway;
let admin: Cookies;
let checker: Cookies;

const ABOVE = 100_000;
const SMALL = ABOVE / 2;
const APPROVE = REVIEW.action('approve');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, withdrawalTickMs: 0 });
  gw = await approvalGateway(sandbox, {
    DUAL_CONTROL_ABOVE: String(ABOVE),
    DUAL_CONTROL_SETTINGS: 'withdrawalConfig,smsConfig',
    DUAL_CONTROL_MAX_OPEN: '5',
  });
  admin = await logIn(gw.app, 'admin');
  checker = await logIn(gw.app, 'checker');
});

afterAll(async () => {
  await gw?.app.close();
  await sandbox?.close();
});

const refused = (answer: { status: number; body: { error?: string } }) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.error).toBe('BAD_REQUEST');
};

describe('the ids of a held approval', () => {
  it('refuses a large withdrawal in ids beside a small id (point 2): nothing reaches the backend', async () => {
    const small = applyWithdrawal(sandbox, SMALL);
    const large = applyWithdrawal(sandbox, ABOVE + 1);
    refused(await post(gw.app, admin, APPROVE, { id: small.id, ids: [large.id] }));
    expect(withdrawal(sandbox, large.id).state).toBe('pending');
    expect(withdrawal(sandbox, small.id).state).toBe('pending');
  });

  it('refuses a body naming one record twice, in any spelling', async () => {
    const large = applyWithdrawal(sandbox, ABOVE + 2);
    const small = applyWithdrawal(sandbox, SMALL);
    refused(await post(gw.app, admin, APPROVE, { ids: [small.id, small.id] }));
    refused(await post(gw.app, admin, APPROVE, { ids: [large.id, `0${large.id}`] }));
    expect(withdrawal(sandbox, large.id).state).toBe('pending');
    expect(withdrawal(sandbox, small.id).state).toBe('pending');
  });

  it('refuses ids as text or an object, and an id that is no id (point 3)', async () => {
    const large = applyWithdrawal(sandbox, ABOVE + 3);
    const small = applyWithdrawal(sandbox, SMALL);
    for (const body of [
      { ids: String(large.id) },
      { ids: `${small.id},${large.id}` },
      { ids: { 0: large.id } },
      { ids: [] },
      { ids: [[large.id]] },
      { ids: [`${small.id},${large.id}`] },
      { id: [large.id] },
      { id: { id: large.id } },
      { id: `${small.id},${large.id}` },
      { id: -large.id },
      { id: large.id + 0.5 },
      { id: true },
    ]) {
      refused(await post(gw.app, admin, APPROVE, body));
    }
    expect(withdrawal(sandbox, large.id).state).toBe('pending');
    expect(withdrawal(sandbox, small.id).state).toBe('pending');
  });

  it('passes a small one on in the judged spelling: the backend reads the id the gateway read', async () => {
    const small = applyWithdrawal(sandbox, SMALL);
    const answer = await post(gw.app, admin, APPROVE, { id: ` +0${small.id} ` });
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(200);
    expect(withdrawal(sandbox, small.id).state).toBe('approved');
    // The trail names the id the backend was sent, not the client's spelling of it.
    const trail = await get(gw.app, admin, `${GATEWAY_PATHS.audit}?resource=${WITHDRAWAL_REVIEW.id}&action=approve`);
    const entries = (trail.body.data as { list: AuditEntry[] }).list;
    expect(entries.find((e) => e.targets.includes(String(small.id)))?.targets).toEqual([String(small.id)]);
    expect(entries.some((e) => e.targets.some((t) => t.includes('+')))).toBe(false);
  });

  it('holds one withdrawal once, whatever the spelling of its id (point 10): the others get 409', async () => {
    const large = applyWithdrawal(sandbox, ABOVE + 4);
    const id = heldId(await approve(gw.app, admin, large.id));
    for (const spelling of [`0${large.id}`, `${large.id} `, `+${large.id}`, String(large.id)]) {
      const again = await post(gw.app, admin, APPROVE, { id: spelling });
      expect(again.status, JSON.stringify(again.body)).toBe(409);
      expect(again.body).toMatchObject({ error: 'APPROVAL_CONFLICT', data: { approvalId: id } });
      const list = await post(gw.app, admin, APPROVE, { ids: [spelling] });
      expect(list.status, JSON.stringify(list.body)).toBe(409);
    }
    // The same call in the same spelling is a retry: the same hold.
    expect(heldId(await approve(gw.app, admin, large.id))).toBe(id);
    const held = (await approvals(gw.app, checker)).filter((a) => a.targets.includes(String(large.id)));
    expect(held.map((a) => a.id)).toEqual([id]);
    expect(withdrawal(sandbox, large.id).state).toBe('pending');
  });

  it('keys ids by the contract type: text digits are numbers, opaque text ids stay text, anything else is none', () => {
    expect(['4', '04', '4 ', '+4', ' 004', 4].map(normalisedId)).toEqual([4, 4, 4, 4, 4, 4]);
    expect(normalisedId('0000000000000000012345678901234567')).toBe('12345678901234567');
    expect(normalisedId('65a1f0c2e4b0a1b2c3d4e5f6')).toBe('65a1f0c2e4b0a1b2c3d4e5f6');
    for (const bad of ['1,2', '1 2', '', '-4', '4.0', 4.5, -1, Number.NaN, null, [], {}, true, 'a'.repeat(129)])
      expect(normalisedId(bad)).toBeNull();
  });
});

describe('a withdrawal whose state the gateway does not know (point 4)', () => {
  it('is held: only a state known to be settled lets a large approval through', async () => {
    const large = applyWithdrawal(sandbox, ABOVE + 5);
    // A map that left the backend's word untranslated answers it as it is.
    (withdrawal(sandbox, large.id) as { state: string }).state = 'PENDING';
    const id = heldId(await approve(gw.app, admin, large.id));
    expect((await approvals(gw.app, checker)).find((a) => a.id === id)?.targets).toEqual([String(large.id)]);
    expect(withdrawal(sandbox, large.id).state).toBe('PENDING');
  });
});

describe('a held settings save (point 5)', () => {
  const config = resourceCalls(SMS_CONFIG).config;
  const settings = () => sandbox.app.sandbox.settings[SMS_CONFIG.id]!;

  it('refuses a secret, a switch or a number in another type before comparing anything', async () => {
    const before = JSON.stringify(settings());
    for (const body of [
      { accessSecret: 12345678 },
      { accessSecret: true },
      { accessSecret: { text: 'x' } },
      { enabled: 'false' },
      { dailyLimitPerPhone: '5' },
    ]) {
      // The contract's value check (INVALID_VALUE) or the hold's own shape check (BAD_REQUEST): a 400 either way.
      const answer = await post(gw.app, admin, config, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(['INVALID_VALUE', 'BAD_REQUEST']).toContain(answer.body.error);
    }
    expect(JSON.stringify(settings())).toBe(before);
  });

  it('holds a new secret and keeps an empty one', async () => {
    const before = JSON.stringify(settings());
    const unchanged = await post(gw.app, admin, config, { accessSecret: '' });
    expect(unchanged.body.code, JSON.stringify(unchanged.body)).toBe(200);
    expect(unchanged.body.data).not.toMatchObject({ held: true });
    const id = heldId(await post(gw.app, admin, config, { accessSecret: 'a-new-secret-1' }));
    const seen = (await approvals(gw.app, admin)).find((a) => a.id === id);
    expect(seen?.changes).toEqual([{ key: 'accessSecret', before: null, after: null, secret: true }]);
    expect(JSON.stringify(settings())).toBe(before);
  });
});

describe('DUAL_CONTROL_MAX_OPEN', () => {
  it('bounds the held calls one administrator has waiting (429 TOO_MANY_HOLDS); another may still hold', async () => {
    const mine = (await approvals(gw.app, admin)).filter((a) => a.mine && !a.expired).length;
    for (let i = mine; i < 5; i++) heldId(await approve(gw.app, admin, applyWithdrawal(sandbox, ABOVE + 10 + i).id));
    const over = applyWithdrawal(sandbox, ABOVE + 20);
    const answer = await approve(gw.app, admin, over.id);
    expect(answer.status, JSON.stringify(answer.body)).toBe(429);
    expect(answer.body).toMatchObject({ error: 'TOO_MANY_HOLDS', data: { open: 5, max: 5 } });
    expect(withdrawal(sandbox, over.id).state).toBe('pending');
    heldId(await approve(gw.app, checker, over.id));
  });
});
