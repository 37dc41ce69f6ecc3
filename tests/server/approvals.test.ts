import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APPROVAL_CALLS,
  GATEWAY_PATHS,
  WITHDRAWAL_CONFIG,
  WITHDRAWAL_REVIEW,
  resourceCalls,
  type AuditEntry,
} from '../../server/contract/index.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { SAME_ORIGIN } from './support/gateway.js';
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
 * Two-person approval through buildApp against the sandbox backend: DUAL_CONTROL_ABOVE=100000
 * (1,000.00), withdrawalConfig held too. The sandbox's own state says what reached it: a held
 * withdrawal stays pending until a second administrator confirms it.
 */

let sandbox: StartedSandbox;
let gw: ApprovalGateway;
let admin: Cookies;
let checker: Cookies;
let operator: Cookies;

const ABOVE = 100_000;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, withdrawalTickMs: 0 });
  gw = await approvalGateway(sandbox, { DUAL_CONTROL_ABOVE: String(ABOVE), DUAL_CONTROL_SETTINGS: 'withdrawalConfig' });
  admin = await logIn(gw.app, 'admin');
  checker = await logIn(gw.app, 'checker');
  operator = await logIn(gw.app, 'operator');
});

afterAll(async () => {
  await gw?.app.close();
  await sandbox?.close();
});

describe('a withdrawal approval above DUAL_CONTROL_ABOVE', () => {
  it('is held, not sent: the withdrawal stays pending and the second approver sees it with its amount', async () => {
    const record = applyWithdrawal(sandbox, ABOVE + 1);
    const answer = await approve(gw.app, admin, record.id);
    const id = heldId(answer);
    expect(answer.body).toMatchObject({ code: 200, data: { held: true, approvalId: id } });
    expect(withdrawal(sandbox, record.id).state).toBe('pending');

    const seen = (await approvals(gw.app, checker)).find((a) => a.id === id);
    expect(seen).toMatchObject({
      kind: 'action',
      resource: WITHDRAWAL_REVIEW.id,
      action: 'approve',
      targets: [String(record.id)],
      mine: false,
      state: 'pending',
      expired: false,
    });
    expect(seen!.records[0]).toMatchObject({
      id: record.id,
      amount: ABOVE + 1,
      fee: record.fee,
      currency: record.currency,
      userAccount: record.userAccount,
    });
    expect((await approvals(gw.app, admin)).find((a) => a.id === id)).toMatchObject({ mine: true });
    // Only holders of the review permission see it.
    expect((await approvals(gw.app, operator)).map((a) => a.id)).not.toContain(id);
    expect(gw.events.at(-1)).toMatchObject({ type: 'hold', by: '1', approval: { id, targets: [String(record.id)] } });
  });

  it('at or below the threshold goes straight to the backend', async () => {
    const record = applyWithdrawal(sandbox, ABOVE);
    const answer = await approve(gw.app, admin, record.id);
    expect(answer.body).toMatchObject({ code: 200, data: { updated: 1 } });
    expect(withdrawal(sandbox, record.id)).toMatchObject({ state: 'approved', reviewer: 'admin' });
  });

  it('is sent to the backend under the confirming session, and the sandbox shows it approved by them', async () => {
    const record = applyWithdrawal(sandbox, ABOVE * 3);
    const id = heldId(await approve(gw.app, admin, record.id));
    const confirmed = await post(gw.app, checker, APPROVAL_CALLS.confirm(id));
    expect(confirmed.body).toMatchObject({ code: 200, data: { updated: 1 } });
    expect(withdrawal(sandbox, record.id)).toMatchObject({ state: 'approved', reviewer: 'checker' });
    expect((await approvals(gw.app, checker)).map((a) => a.id)).not.toContain(id);
    expect(gw.events.at(-1)).toMatchObject({
      type: 'confirm',
      by: '3',
      requestedBy: '1',
      outcome: 'sent',
      backend: { code: 200 },
      approval: { id },
    });
    // Settled: nothing left to confirm.
    expect(await post(gw.app, checker, APPROVAL_CALLS.confirm(id))).toMatchObject({
      status: 404,
      body: { error: 'APPROVAL_NOT_FOUND' },
    });
  });

  it('refuses the first approver confirming their own hold (403 SAME_APPROVER)', async () => {
    const record = applyWithdrawal(sandbox, ABOVE * 2);
    const id = heldId(await approve(gw.app, admin, record.id));
    expect(await post(gw.app, admin, APPROVAL_CALLS.confirm(id))).toMatchObject({
      status: 403,
      body: { code: 403, error: 'SAME_APPROVER' },
    });
    expect(withdrawal(sandbox, record.id).state).toBe('pending');
    // An administrator without the review permission may neither.
    expect(await post(gw.app, operator, APPROVAL_CALLS.confirm(id))).toMatchObject({
      status: 403,
      body: { error: 'FORBIDDEN' },
    });
    await post(gw.app, checker, APPROVAL_CALLS.decline(id), { reason: 'test over' });
  });

  it('drops a declined hold with its reason; nothing reaches the backend', async () => {
    const record = applyWithdrawal(sandbox, ABOVE * 2);
    const id = heldId(await approve(gw.app, admin, record.id));
    expect(await post(gw.app, checker, APPROVAL_CALLS.decline(id), {})).toMatchObject({
      status: 400,
      body: { error: 'BAD_REQUEST' },
    });
    expect(await post(gw.app, checker, APPROVAL_CALLS.decline(id), { reason: '   ' })).toMatchObject({ status: 400 });
    const declined = await post(gw.app, checker, APPROVAL_CALLS.decline(id), { reason: 'Payee name does not match' });
    expect(declined).toMatchObject({ status: 200, body: { code: 200 } });
    expect(withdrawal(sandbox, record.id).state).toBe('pending');
    expect((await approvals(gw.app, admin)).map((a) => a.id)).not.toContain(id);
    expect(gw.events.at(-1)).toMatchObject({
      type: 'decline',
      by: '3',
      requestedBy: '1',
      reason: 'Payee name does not match',
    });
    expect(await post(gw.app, checker, APPROVAL_CALLS.confirm(id))).toMatchObject({
      status: 404,
      body: { error: 'APPROVAL_NOT_FOUND' },
    });
  });

  it('answers a withdrawal reviewed meanwhile with the backend’s own refusal, and settles the hold', async () => {
    const record = applyWithdrawal(sandbox, ABOVE * 2);
    const id = heldId(await approve(gw.app, admin, record.id));
    // Rejected by someone else in the meantime (a rejection is never held).
    expect((await post(gw.app, admin, REVIEW.action('reject'), { id: record.id, reason: 'duplicate' })).body.code).toBe(
      200,
    );
    const confirmed = await post(gw.app, checker, APPROVAL_CALLS.confirm(id));
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({
      code: 400,
      msg: `approve does not apply to withdrawalReview record ${record.id} (state is rejected)`,
    });
    expect(withdrawal(sandbox, record.id).state).toBe('rejected');
    expect((await approvals(gw.app, checker)).map((a) => a.id)).not.toContain(id);
    expect(gw.events.at(-1)).toMatchObject({ type: 'confirm', outcome: 'refused', backend: { code: 400 } });
  });

  it('answers a repeated approval with the same hold, and another administrator’s with 409 APPROVAL_CONFLICT', async () => {
    const record = applyWithdrawal(sandbox, ABOVE * 2);
    const id = heldId(await approve(gw.app, admin, record.id));
    expect(heldId(await approve(gw.app, admin, record.id))).toBe(id);
    expect(await approve(gw.app, checker, record.id)).toMatchObject({
      status: 409,
      body: { error: 'APPROVAL_CONFLICT', data: { approvalId: id } },
    });
    expect(withdrawal(sandbox, record.id).state).toBe('pending');
    await post(gw.app, admin, APPROVAL_CALLS.decline(id), { reason: 'withdrawn by the first approver' });
  });

  it('holds a selection ({ids}) with a large withdrawal in it as one call, never sending the small one alone', async () => {
    // The console approves row by row; a selection in one call is what a backend map may bind, or a hand-made call.
    const small = applyWithdrawal(sandbox, ABOVE / 2);
    const large = applyWithdrawal(sandbox, ABOVE * 4);
    const id = heldId(await post(gw.app, admin, REVIEW.action('approve'), { ids: [small.id, large.id] }));
    expect([withdrawal(sandbox, small.id).state, withdrawal(sandbox, large.id).state]).toEqual(['pending', 'pending']);
    const seen = (await approvals(gw.app, checker)).find((a) => a.id === id)!;
    expect(seen.targets).toEqual([String(small.id), String(large.id)]);
    expect(seen.records.map((r) => r.amount)).toEqual([ABOVE / 2, ABOVE * 4]);
    await post(gw.app, checker, APPROVAL_CALLS.decline(id), { reason: 'one at a time, please' });
  });

  it('refuses every other way to the held call rather than sending it unheld', async () => {
    const record = applyWithdrawal(sandbox, ABOVE * 2);
    const path = REVIEW.action('approve');
    const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: string, type = 'application/json') =>
      gw.app.inject({
        method,
        url,
        headers: { ...SAME_ORIGIN, ...(payload === undefined ? {} : { 'content-type': type }) },
        cookies: admin,
        ...(payload === undefined ? {} : { payload }),
      });
    const json = JSON.stringify({ id: record.id });
    const refusals = [
      [await send('POST', path.replace('approve', 'Approve'), json), 400, 'BAD_REQUEST'],
      [await send('POST', `${path}.json`, json), 400, 'BAD_REQUEST'],
      [await send('POST', `${path}/`, json), 400, 'BAD_REQUEST'],
      [await send('GET', `${path}?id=${record.id}`), 405, 'METHOD_NOT_ALLOWED'],
      [await send('PUT', path, json), 405, 'METHOD_NOT_ALLOWED'],
      [await send('POST', `${path}?id=${record.id}`, '{}'), 400, 'BAD_REQUEST'],
      [await send('POST', path, `id=${record.id}`, 'application/x-www-form-urlencoded'), 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [await send('POST', path, JSON.stringify({ id: record.id, idList: [record.id] })), 400, 'BAD_REQUEST'],
      [await send('POST', path, '{}'), 400, 'BAD_REQUEST'],
    ] as const;
    for (const [res, status, error] of refusals) {
      expect({ status: res.statusCode, error: res.json<{ error: string }>().error }, res.body).toEqual({
        status,
        error,
      });
    }
    expect(withdrawal(sandbox, record.id).state).toBe('pending');
    expect((await approvals(gw.app, admin)).some((a) => a.targets.includes(String(record.id)))).toBe(false);
  });

  it('answers an unknown hold with 404 APPROVAL_NOT_FOUND', async () => {
    expect(await post(gw.app, checker, APPROVAL_CALLS.confirm('no-such-hold'))).toMatchObject({
      status: 404,
      body: { error: 'APPROVAL_NOT_FOUND' },
    });
    expect(await post(gw.app, checker, APPROVAL_CALLS.decline('no-such-hold'), { reason: 'x' })).toMatchObject({
      status: 404,
    });
  });
});

describe('a settings save DUAL_CONTROL_SETTINGS names', () => {
  const config = resourceCalls(WITHDRAWAL_CONFIG).config;
  const settings = () => sandbox.app.sandbox.settings[WITHDRAWAL_CONFIG.id]!;

  it('is held with each changed field before and after, and applied once confirmed', async () => {
    const before = { ...settings() };
    const saved = await post(gw.app, admin, config, {
      ...before,
      feePercent: Number(before.feePercent) + 1,
      notice: 'Reviewed within a day',
    });
    const id = heldId(saved);
    expect(settings()).toEqual(before);
    const seen = (await approvals(gw.app, checker)).find((a) => a.id === id)!;
    expect(seen).toMatchObject({ kind: 'settings', resource: WITHDRAWAL_CONFIG.id, action: null });
    expect(seen.changes).toEqual([
      { key: 'feePercent', before: before.feePercent, after: Number(before.feePercent) + 1, secret: false },
      { key: 'notice', before: before.notice, after: 'Reviewed within a day', secret: false },
    ]);
    // Reading the settings is never held.
    expect((await gw.app.inject({ method: 'GET', url: config, cookies: checker })).json()).toMatchObject({
      code: 200,
      data: before,
    });

    const confirmed = await post(gw.app, checker, APPROVAL_CALLS.confirm(id));
    expect(confirmed.body.code).toBe(200);
    expect(settings()).toMatchObject({ feePercent: Number(before.feePercent) + 1, notice: 'Reviewed within a day' });
  });

  it('goes through unheld when it changes nothing', async () => {
    const saved = await post(gw.app, admin, config, { ...settings() });
    expect(saved.body).toMatchObject({ code: 200 });
    expect(saved.body.data).not.toMatchObject({ held: true });
  });

  it('is not confirmed over a newer change of the same settings (409 APPROVAL_CONFLICT)', async () => {
    const current = { ...settings() };
    const id = heldId(await post(gw.app, admin, config, { ...current, dailyCount: Number(current.dailyCount) + 1 }));
    settings().minFee = Number(current.minFee) + 50;
    expect(await post(gw.app, checker, APPROVAL_CALLS.confirm(id))).toMatchObject({
      status: 409,
      body: { error: 'APPROVAL_CONFLICT', data: { changed: ['minFee'] } },
    });
    expect(settings().dailyCount).toBe(current.dailyCount);
    // Still there, for someone to decline.
    expect((await approvals(gw.app, checker)).map((a) => a.id)).toContain(id);
    await post(gw.app, checker, APPROVAL_CALLS.decline(id), { reason: 'stale' });
  });
});

describe('holds that waited too long', () => {
  it('are refused with 410 APPROVAL_EXPIRED after DUAL_CONTROL_TTL_HOURS, and stay listed as expired until declined', async () => {
    let clock = Date.now();
    const timed = await approvalGateway(
      sandbox,
      { DUAL_CONTROL_ABOVE: String(ABOVE), DUAL_CONTROL_TTL_HOURS: '2' },
      { now: () => clock },
    );
    try {
      const record = applyWithdrawal(sandbox, ABOVE * 2);
      const id = heldId(await approve(timed.app, await logIn(timed.app, 'admin'), record.id));
      clock += 2 * 3_600_000 + 1_000;
      // Sessions age by the same clock: the second approver logs in after the wait.
      const late = await logIn(timed.app, 'checker');
      expect(await post(timed.app, late, APPROVAL_CALLS.confirm(id))).toMatchObject({
        status: 410,
        body: { code: 410, error: 'APPROVAL_EXPIRED' },
      });
      expect(withdrawal(sandbox, record.id).state).toBe('pending');
      expect((await approvals(timed.app, late)).find((a) => a.id === id)).toMatchObject({ expired: true });
      expect((await post(timed.app, late, APPROVAL_CALLS.decline(id), { reason: 'expired' })).status).toBe(200);
      // Approving again holds it afresh.
      heldId(await approve(timed.app, await logIn(timed.app, 'admin'), record.id));
    } finally {
      await timed.app.close();
      // The sandbox keeps one token per account: the shared gateway's sessions log in again.
      admin = await logIn(gw.app, 'admin');
      checker = await logIn(gw.app, 'checker');
    }
  });
});

describe('the audit trail of a held approval', () => {
  type Trail = { list: AuditEntry[]; total: number };
  const trail = async (target: number): Promise<AuditEntry[]> => {
    const { status, body } = await get(
      gw.app,
      admin,
      `${GATEWAY_PATHS.audit}?target=${target}&resource=${WITHDRAWAL_REVIEW.id}&pageSize=50`,
    );
    expect(status).toBe(200);
    return (body.data as Trail).list;
  };

  it('records the hold by the first administrator and the confirmation by the second, with the backend’s answer, and no change when it was only held', async () => {
    const record = applyWithdrawal(sandbox, ABOVE * 4);
    const id = heldId(await approve(gw.app, admin, record.id));
    const held = await trail(record.id);
    // Nothing reached the backend: the trail holds the hold and no change.
    expect(held.map((e) => e.kind)).toEqual(['hold']);
    expect(held[0]).toMatchObject({
      action: 'approve',
      targets: [String(record.id)],
      actor: { account: 'admin' },
      detail: { approvalId: id },
    });

    await post(gw.app, checker, APPROVAL_CALLS.confirm(id));
    const settled = await trail(record.id);
    expect(settled.map((e) => e.kind)).toEqual(['confirm', 'hold']);
    expect(settled[0]).toMatchObject({
      actor: { account: 'checker' },
      outcome: { status: 200, code: 200 },
      detail: { approvalId: id, requestedBy: '1' },
    });
  });

  it('records a decline with the second administrator’s reason', async () => {
    const record = applyWithdrawal(sandbox, ABOVE * 4);
    const id = heldId(await approve(gw.app, admin, record.id));
    await post(gw.app, checker, APPROVAL_CALLS.decline(id), { reason: 'Payee unknown' });
    const entries = await trail(record.id);
    expect(entries.map((e) => e.kind)).toEqual(['decline', 'hold']);
    expect(entries[0]).toMatchObject({ actor: { account: 'checker' }, reason: 'Payee unknown', outcome: null });
  });
});
