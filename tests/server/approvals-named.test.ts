import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_CALLS, type ApprovalList } from '../../server/contract/index.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import {
  applyWithdrawal,
  approvalGateway,
  approvals,
  approve,
  get,
  heldId,
  logIn,
  type ApprovalGateway,
  type Cookies,
} from './support/approvals-rig.js';

/*
 * What the second approver is told of a hold, through buildApp against the sandbox: who asked by
 * the account they logged in with (not a backend user id), and the threshold itself, so the
 * approve dialog can say before the click that an approval will wait for a second approver.
 */

let sandbox: StartedSandbox;
let gw: ApprovalGateway;
let off: ApprovalGateway;
let admin: Cookies;
let checker: Cookies;

const ABOVE = 100_000;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, withdrawalTickMs: 0 });
  gw = await approvalGateway(sandbox, { DUAL_CONTROL_ABOVE: String(ABOVE) });
  // Only settings held: no withdrawal approval waits, whatever its amount.
  off = await approvalGateway(sandbox, { DUAL_CONTROL_ABOVE: '', DUAL_CONTROL_SETTINGS: 'withdrawalConfig' });
  admin = await logIn(gw.app, 'admin');
  checker = await logIn(gw.app, 'checker');
});

afterAll(async () => {
  await gw?.app.close();
  await off?.app.close();
  await sandbox?.close();
});

describe('a hold as the second approver sees it', () => {
  it('names who asked by their login account, beside their user id', async () => {
    const record = applyWithdrawal(sandbox, ABOVE + 1);
    const id = heldId(await approve(gw.app, admin, record.id));
    const seen = (await approvals(gw.app, checker)).find((a) => a.id === id)!;
    expect(seen.requestedByName).toBe('admin');
    // The id stays what decides who is who (mine, same approver); the name is for reading.
    expect(seen.requestedBy).toMatch(/^\d+$/);
    expect((await approvals(gw.app, admin)).find((a) => a.id === id)).toMatchObject({
      mine: true,
      requestedByName: 'admin',
    });
  });

  it('tells the threshold with the list, and none where no withdrawal approval is held', async () => {
    const held = await get(gw.app, checker, APPROVAL_CALLS.list);
    expect((held.body.data as ApprovalList).dualControlAbove).toBe(ABOVE);
    const settingsOnly = await get(off.app, await logIn(off.app, 'checker'), APPROVAL_CALLS.list);
    expect(settingsOnly.status).toBe(200);
    expect((settingsOnly.body.data as ApprovalList).dualControlAbove).toBeNull();
    // Not to anyone logged out.
    expect((await get(gw.app, {}, APPROVAL_CALLS.list)).status).toBe(401);
  });
});
