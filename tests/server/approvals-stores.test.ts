import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_CALLS } from '../../server/contract/index.js';
import { FileApprovalStore } from '../../server/approvals/file-store.js';
import { HoldTable } from '../../server/approvals/store.js';
import { IpcApprovalStore, approvalPrimary } from '../../server/approvals/ipc-store.js';
import type { PrimaryChannel } from '../../server/cluster/ipc.js';
import { EXPIRED_KEPT_MS, type Hold } from '../../server/approvals/hold.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { REPO_ROOT } from '../support/paths.js';
import { SAME_ORIGIN } from './support/gateway.js';
import {
  applyWithdrawal,
  approvalGateway,
  approvals,
  approve,
  heldId,
  logIn,
  post,
  tempDataDir,
  withdrawal,
} from './support/approvals-rig.js';

/** Where holds live: across a restart (DATA_DIR), behind a backend map, and the store's own rules. */

const HOUR = 3_600_000;

function hold(id: string, subject: string, requestedAt: number, ttl = HOUR): Hold {
  return {
    id,
    subject,
    kind: 'action',
    resource: 'withdrawalReview',
    action: 'approve',
    permission: '/manage/finance/cashWithdrawalCheck',
    targets: [subject],
    records: [],
    changes: [],
    before: null,
    call: { method: 'POST', path: '/manage/finance/cashWithdrawalCheck/approve', body: { id: Number(subject) } },
    requestedBy: '1',
    requestedAt,
    expiresAt: requestedAt + ttl,
  };
}

describe('the hold table', () => {
  it('keeps one pending hold per subject; an expired one gives way to a new hold', () => {
    const table = new HoldTable();
    expect(table.create(hold('a', '7', 0), 0)).toEqual({ created: true });
    expect(table.create(hold('b', '7', 10), 10)).toMatchObject({ created: false, existing: { hold: { id: 'a' } } });
    expect(table.create(hold('c', '7', HOUR + 1), HOUR + 1)).toEqual({ created: true });
    expect(table.list(HOUR + 1).map((s) => s.hold.id)).toEqual(['c']);
  });

  it('lets one claim at a time hold a hold, and frees one whose process died once it is stale', () => {
    const table = new HoldTable(1_000);
    table.create(hold('a', '1', 0), 0);
    expect(table.claim('a', 'first', 0)).toMatchObject({ claimed: true });
    expect(table.claim('a', 'second', 500)).toEqual({ claimed: false, reason: 'busy' });
    expect(table.get('a', 500)?.claim).toBe('first');
    // A release or removal by anyone but the claimant does nothing.
    expect(table.release('a', 'second')).toBe(false);
    expect(table.remove('a', 'second')).toBe(false);
    expect(table.claim('a', 'second', 1_000)).toMatchObject({ claimed: true });
    expect(table.remove('a', 'first')).toBe(false);
    expect(table.remove('a', 'second')).toBe(true);
    expect(table.claim('a', 'third', 1_000)).toEqual({ claimed: false, reason: 'missing' });
  });

  it('lists an expired hold for a day more, then forgets it', () => {
    const table = new HoldTable();
    table.create(hold('a', '1', 0), 0);
    expect(table.sweep(HOUR + EXPIRED_KEPT_MS - 1)).toBe(false);
    expect(table.sweep(HOUR + EXPIRED_KEPT_MS)).toBe(true);
    expect(table.list(HOUR + EXPIRED_KEPT_MS)).toEqual([]);
  });
});

describe('the file store', () => {
  it('writes every change to DATA_DIR/approvals.json and reads it back in a new process', async () => {
    const dir = tempDataDir();
    const first = new FileApprovalStore({ dir });
    await first.open();
    await first.create(hold('a', '1', Date.now()), Date.now());
    await first.close();
    expect(JSON.parse(readFileSync(path.join(dir, 'approvals.json'), 'utf8'))).toMatchObject({
      version: 1,
      holds: [{ hold: { id: 'a' }, claim: null }],
    });
    const second = new FileApprovalStore({ dir });
    expect((await second.list(Date.now())).map((s) => s.hold.id)).toEqual(['a']);
    await second.close();
  });

  it('sets an unreadable file aside instead of trusting it, and starts empty', async () => {
    const dir = tempDataDir();
    writeFileSync(path.join(dir, 'approvals.json'), '{"version":1,"holds":[{"hold":');
    const told: string[] = [];
    const store = new FileApprovalStore({ dir, onUnreadable: (_file, aside) => told.push(aside) });
    await store.open();
    expect(await store.list(Date.now())).toEqual([]);
    expect(told).toHaveLength(1);
    expect(readdirSync(dir).some((name) => name.startsWith('approvals.json.unreadable-'))).toBe(true);
    await store.close();
  });
});

describe('the cluster workers’ store (WORKERS > 1 without Redis)', () => {
  it('sends every step to the primary’s one file, so two workers never hold or claim one thing twice', async () => {
    const dir = tempDataDir();
    const primary = await approvalPrimary(dir);
    // What crosses IPC is structured-cloned: a JSON round trip stands for it here.
    const channel = {
      call: async (method: string, params: unknown) =>
        JSON.parse(
          JSON.stringify((await primary.handlers[method]!(JSON.parse(JSON.stringify(params)), null as never)) ?? null),
        ),
    } as unknown as PrimaryChannel;
    const one = new IpcApprovalStore(channel);
    const two = new IpcApprovalStore(channel);
    const now = Date.now();
    expect(await one.create(hold('a', '5', now), now)).toEqual({ created: true });
    expect(await two.create(hold('b', '5', now), now)).toMatchObject({
      created: false,
      existing: { hold: { id: 'a' } },
    });
    expect((await two.list(now)).map((s) => s.hold.id)).toEqual(['a']);
    expect(await one.claim('a', 'worker-one', now)).toMatchObject({ claimed: true });
    expect(await two.claim('a', 'worker-two', now)).toEqual({ claimed: false, reason: 'busy' });
    expect(await two.remove('a', 'worker-two')).toBe(false);
    expect(await one.remove('a', 'worker-one')).toBe(true);
    expect(await two.get('a', now)).toBeNull();
    await primary.store.close();
    expect(JSON.parse(readFileSync(path.join(dir, 'approvals.json'), 'utf8'))).toEqual({ version: 1, holds: [] });
  });
});

describe('a gateway restarted on the same DATA_DIR', () => {
  let sandbox: StartedSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, withdrawalTickMs: 0 });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('still holds what it held, and the second approver confirms it there', async () => {
    const dataDir = tempDataDir();
    const before = await approvalGateway(sandbox, {}, { dataDir });
    const record = applyWithdrawal(sandbox, 500_000);
    const id = heldId(await approve(before.app, await logIn(before.app, 'admin'), record.id));
    await before.app.close();
    expect(existsSync(path.join(dataDir, 'approvals.json'))).toBe(true);

    const after = await approvalGateway(sandbox, {}, { dataDir });
    try {
      const checker = await logIn(after.app, 'checker');
      expect((await approvals(after.app, checker)).map((a) => a.id)).toEqual([id]);
      expect(withdrawal(sandbox, record.id).state).toBe('pending');
      expect((await post(after.app, checker, APPROVAL_CALLS.confirm(id))).body).toMatchObject({ code: 200 });
      expect(withdrawal(sandbox, record.id)).toMatchObject({ state: 'approved', reviewer: 'checker' });
    } finally {
      await after.app.close();
    }
  });
});

describe('behind a backend map (the legacy dialect)', () => {
  let sandbox: StartedSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, withdrawalTickMs: 0, dialect: 'legacy' });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('holds before the translation, confirms through it, and refuses the backend’s own path of the call', async () => {
    const gw = await approvalGateway(sandbox, { BACKEND_MAP: path.join(REPO_ROOT, 'sandbox/legacy-map.json') });
    try {
      const admin = await logIn(gw.app, 'admin');
      const record = applyWithdrawal(sandbox, 250_000);
      const id = heldId(await approve(gw.app, admin, record.id));
      expect(withdrawal(sandbox, record.id).state).toBe('pending');
      const checker = await logIn(gw.app, 'checker');
      // The hold read the application through the map: its amount is back in the smallest unit.
      expect((await approvals(gw.app, checker)).find((a) => a.id === id)?.records[0]).toMatchObject({
        amount: 250_000,
      });

      const direct = await gw.app.inject({
        method: 'POST',
        url: '/manage/withdrawal-review/approve',
        headers: SAME_ORIGIN,
        cookies: admin,
        payload: { id: record.id },
      });
      expect(direct.statusCode).toBe(403);
      expect(direct.json()).toMatchObject({ error: 'FORBIDDEN' });
      expect(withdrawal(sandbox, record.id).state).toBe('pending');

      expect((await post(gw.app, checker, APPROVAL_CALLS.confirm(id))).body).toMatchObject({ code: 200 });
      expect(withdrawal(sandbox, record.id)).toMatchObject({ state: 'approved', reviewer: 'checker' });
    } finally {
      await gw.app.close();
    }
  });
});
