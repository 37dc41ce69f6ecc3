import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALLS,
  GATEWAY_PATHS,
  PERMISSIONS,
  RESOURCES,
  resourceCalls,
  type ListResource,
} from '../../server/contract/index.js';
import {
  AUDIT_SECRET_CHANGED,
  EXPORT_ROWS_HEADER,
  EXPORT_TOTAL_HEADER,
  type AuditEntry,
} from '../../server/contract/audit.js';
import { consoleCalls } from '../../server/backend-map/calls.js';
import { SessionSealer } from '../../server/session/seal.js';
import { verifyFile } from '../../server/audit/verify.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { removeTempDirs } from '../support/processes.js';
import { parseCsv } from '../support/csv.js';
import {
  auditGateway,
  call,
  fileText,
  logInAs,
  newest,
  trail,
  type AuditGateway,
  type Cookies,
} from './support/audit-rig.js';

/**
 * The audit trail through buildApp in front of the sandbox backend: what each kind of call leaves
 * in it, the values before and after an edit, exports, the questions GET /api/audit answers, who
 * may ask them, and that no secret ever reaches the file.
 */

let sandbox: StartedSandbox;
let gw: AuditGateway;
let admin: Cookies;
const store = () => sandbox.app.sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, withdrawalTickMs: 0 });
  gw = await auditGateway(sandbox);
  admin = await logInAs(gw.app, 'admin', 'admin123');
});

afterAll(async () => {
  await gw?.app.close();
  await sandbox?.close();
  removeTempDirs();
});

async function total(): Promise<number> {
  return (await trail(gw.app, admin, '?pageSize=1')).total;
}

/** Makes a call and returns the one entry it added, checking it was exactly one. */
async function recorded(
  method: 'POST' | 'GET' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  cookies = admin,
): Promise<{ entry: AuditEntry; body: { code?: unknown } }> {
  const before = await total();
  const response = await call(gw.app, cookies, method, url, payload);
  const body = String(response.headers['content-type'] ?? '').includes('json')
    ? (response.json() as { code?: unknown })
    : {};
  expect(await total(), `${method} ${url} adds one entry`).toBe(before + 1);
  return { entry: await newest(gw.app, admin), body };
}

describe('what the trail records', () => {
  it('records every non-GET call of the contract, by its resource, call and action, with its outcome', async () => {
    const missing = 999_999_999;
    const cases: {
      method: 'POST';
      path: string;
      body: Record<string, unknown>;
      resource: string;
      call: string;
      action: string | null;
    }[] = [];
    for (const resource of RESOURCES) {
      for (const c of consoleCalls(resource)) {
        if (c.method === 'GET') continue;
        if (c.kind === 'save')
          cases.push({
            method: 'POST',
            path: c.path,
            body: { id: missing },
            resource: resource.id,
            call: 'save',
            action: 'update',
          });
        else if (c.kind === 'delete')
          cases.push({
            method: 'POST',
            path: c.path,
            body: { ids: [missing] },
            resource: resource.id,
            call: 'delete',
            action: 'delete',
          });
        else if (c.kind === 'saveConfig')
          cases.push({
            method: 'POST',
            path: c.path,
            body: {},
            resource: resource.id,
            call: 'config',
            action: 'saveConfig',
          });
        else {
          const run = resource.kind === 'operation' && resource.run === c.action;
          // A record that does not exist, so nothing changes: the call is refused, and recorded all the same.
          cases.push({
            method: 'POST',
            path: c.path,
            body: { id: missing },
            resource: resource.id,
            call: run ? 'run' : 'action',
            action: c.action,
          });
        }
      }
    }
    for (const name of [
      'runnerSetMoment',
      'runnerSetWallet',
      'runnerSetMomentPublic',
      'runnerSetAutomaticRegister',
      'runnerSaveConfig',
      'importDatabase',
    ] as const) {
      cases.push({ method: 'POST', path: CALLS[name], body: {}, resource: 'deployment', call: name, action: name });
    }
    expect(cases.length).toBeGreaterThan(60);
    const before = await total();
    const codes: unknown[] = [];
    for (const c of cases) {
      const response = await call(gw.app, admin, c.method, c.path, c.body);
      codes.push((response.json() as { code?: unknown }).code);
    }
    // One entry per call, in the order they were made.
    const page = await trail(gw.app, admin, `?pageSize=200`);
    expect(page.total).toBe(before + cases.length);
    const entries = page.list.slice(0, cases.length).reverse();
    cases.forEach((c, i) => {
      const entry = entries[i]!;
      expect({ path: entry.path, resource: entry.resource, call: entry.call, action: entry.action }).toEqual({
        path: c.path,
        resource: c.resource,
        call: c.call,
        action: c.action,
      });
      expect(entry).toMatchObject({
        kind: 'change',
        actor: { account: 'admin', userId: expect.any(String) },
        method: 'POST',
      });
      expect(entry.outcome, c.path).toMatchObject({ status: 200, code: codes[i] });
      expect(entry.requestId).toEqual(expect.any(String));
    });
  }, 120_000);

  it('records the state-changing GET of the withdrawal sync, and no other GET', async () => {
    const { entry } = await recorded('GET', CALLS.syncCashWithdrawal);
    expect(entry).toMatchObject({
      resource: 'withdrawalReview',
      call: 'action',
      action: 'syncCashWithdrawal',
      method: 'GET',
      outcome: { code: 200 },
    });
    const before = await total();
    for (const path of [
      resourceCalls(RESOURCES[3]!).list,
      CALLS.count,
      CALLS.runner,
      `${PERMISSIONS.userProfile}/detail?id=1`,
    ]) {
      await call(gw.app, admin, 'GET', path);
    }
    expect(await total()).toBe(before);
  });

  it('records a call the contract does not know by its path, and a refusal by the backend with its code', async () => {
    const { entry } = await recorded('POST', '/manage/no/such/call', { id: 5, reason: 'why not' });
    expect(entry).toMatchObject({
      resource: null,
      call: null,
      action: null,
      path: '/manage/no/such/call',
      targets: ['5'],
      reason: 'why not',
    });
    expect(entry.outcome?.code).not.toBe(200);
  });

  it('records a ban with its target and reason, and a bulk ban with every id', async () => {
    const [a, b, c] = store()
      .users.all()
      .filter((u) => u.status === 'normal')
      .slice(0, 3);
    const one = await recorded('POST', `${PERMISSIONS.userProfile}/ban`, { id: a!.id, reason: 'Spam links in groups' });
    expect(one.entry).toMatchObject({
      resource: 'users',
      action: 'ban',
      targets: [String(a!.id)],
      reason: 'Spam links in groups',
      outcome: { code: 200 },
    });
    const bulk = await recorded('POST', `${PERMISSIONS.userProfile}/ban`, {
      ids: [b!.id, c!.id],
      reason: 'Fraud ring',
    });
    expect(bulk.entry).toMatchObject({ action: 'ban', targets: [String(b!.id), String(c!.id)], reason: 'Fraud ring' });
  });

  it('records an edit with the values before and after, only those it changes', async () => {
    const user = store()
      .users.all()
      .find((u) => u.status === 'normal' && u.phone)!;
    const oldName = user.nickname;
    const list = await call(gw.app, admin, 'GET', `${PERMISSIONS.userProfile}/list?keyword=${user.account}`);
    const row = (list.json() as { data: { list: Record<string, unknown>[] } }).data.list.find((r) => r.id === user.id)!;
    const { entry } = await recorded('POST', `${PERMISSIONS.userProfile}/save`, { ...row, nickname: 'Audited name' });
    expect(entry).toMatchObject({ resource: 'users', call: 'save', action: 'update', targets: [String(user.id)] });
    expect(entry.before).toEqual({ nickname: oldName });
    expect(entry.after).toEqual({ nickname: 'Audited name' });
  });

  it('records a settings save with the settings before (read by the gateway first) and after', async () => {
    const path = resourceCalls(RESOURCES.find((r) => r.id === 'withdrawalConfig')!).config;
    const current = (await call(gw.app, admin, 'GET', path)).json() as { data: Record<string, unknown> };
    const oldFee = current.data.feePercent as number;
    const { entry } = await recorded('POST', path, {
      ...current.data,
      feePercent: oldFee + 3,
      notice: 'Withdrawals take one day',
    });
    expect(entry).toMatchObject({
      resource: 'withdrawalConfig',
      call: 'config',
      action: 'saveConfig',
      outcome: { code: 200 },
    });
    expect(entry.before).toEqual({ feePercent: oldFee, notice: current.data.notice });
    expect(entry.after).toEqual({ feePercent: oldFee + 3, notice: 'Withdrawals take one day' });
  });

  it('records a create with what was created, and a delete with its ids', async () => {
    const words = RESOURCES.find((r) => r.id === 'sensitiveWords')! as ListResource;
    const created = await recorded('POST', resourceCalls(words).save, { word: 'audit-word', category: 'ads' });
    expect(created.entry).toMatchObject({ resource: 'sensitiveWords', action: 'create', outcome: { code: 200 } });
    expect(created.entry.after).toMatchObject({ word: 'audit-word' });
    const id = store()
      .sensitiveWords.all()
      .find((w) => w.word === 'audit-word')!.id;
    const deleted = await recorded('POST', resourceCalls(words).remove, { ids: [id] });
    expect(deleted.entry).toMatchObject({ action: 'delete', targets: [String(id)], outcome: { code: 200 } });
  });

  it('records logins, failed ones too, and logouts, by account', async () => {
    // Without the admin's cookies: a failed login ends the session it arrives with.
    const failed = await recorded(
      'POST',
      CALLS.login,
      { account: ' operator ', password: 'Wrong-pass-5150', code: '' },
      {},
    );
    expect(failed.entry).toMatchObject({
      kind: 'login',
      action: 'login',
      actor: { account: 'operator', userId: null },
    });
    expect(failed.entry.outcome?.code).not.toBe(200);
    const cookies = await logInAs(gw.app, 'operator', 'operator123');
    const ok = await newest(gw.app, admin);
    expect(ok).toMatchObject({
      kind: 'login',
      actor: { account: 'operator', userId: expect.any(String) },
      outcome: { code: 200 },
    });
    const out = await recorded('POST', GATEWAY_PATHS.logout, undefined, cookies);
    expect(out.entry).toMatchObject({ kind: 'logout', actor: ok.actor });
  });
});

describe('exports', () => {
  it('streams a filtered list as CSV through the gateway and records the resource, filters and rows', async () => {
    const wanted = store()
      .users.all()
      .filter((u) => u.status === 'normal');
    // More than one of the export's pages of 200.
    expect(wanted.length).toBeGreaterThan(1_000);
    const response = await call(gw.app, admin, 'POST', GATEWAY_PATHS.export, {
      resource: 'users',
      query: { status: 'normal', sort: 'id', pageNum: '3' },
      columns: [
        { key: 'id', label: 'ID', kind: 'number' },
        { key: 'status', label: 'Status', kind: 'select', values: { banned: 'Banned', normal: 'Normal' } },
        { key: 'balance', label: 'Balance', kind: 'money' },
        { key: 'registerTime', label: 'Registered', kind: 'datetime' },
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers[EXPORT_TOTAL_HEADER]).toBe(String(wanted.length));
    expect(response.headers[EXPORT_ROWS_HEADER]).toBe(String(wanted.length));
    expect(response.body.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(response.body.slice(1));
    expect(header).toEqual(['ID', 'Status', 'Balance', 'Registered']);
    // Every row of the filter, not the page named: paging is the export's own.
    expect(rows.map((r) => Number(r[0]))).toEqual(wanted.map((u) => u.id).sort((x, y) => x - y));
    const first = wanted.find((u) => u.id === Number(rows[0]![0]))!;
    expect(rows[0]!.slice(1)).toEqual([
      'Normal',
      (first.balance / 100).toFixed(2),
      new Date(first.registerTime).toISOString(),
    ]);

    const entry = await newest(gw.app, admin);
    expect(entry).toMatchObject({
      kind: 'export',
      resource: 'users',
      action: 'export',
      export: { filters: { status: 'normal', sort: 'id' }, rows: wanted.length, format: 'csv' },
      outcome: { code: 200 },
      path: GATEWAY_PATHS.export,
    });
  });

  it('stops at 10,000 rows and says how many the list holds', async () => {
    const response = await call(gw.app, admin, 'POST', GATEWAY_PATHS.export, {
      resource: 'billingRecords',
      query: {},
      columns: [{ key: 'id', label: 'ID', kind: 'number' }],
    });
    const bills = store().bills.all().length;
    expect(response.headers[EXPORT_TOTAL_HEADER]).toBe(String(bills));
    const rows = parseCsv(response.body.slice(1)).length - 1;
    expect(rows).toBe(Math.min(bills, 10_000));
    expect((await newest(gw.app, admin)).export?.rows).toBe(rows);
  });

  it('answers a refusal in the envelope, and an unknown resource with 400', async () => {
    const operator = await logInAs(gw.app, 'operator', 'operator123');
    const refused = await call(gw.app, operator, 'POST', GATEWAY_PATHS.export, {
      resource: 'withdrawalReview',
      query: {},
      columns: [{ key: 'id', label: 'ID', kind: 'number' }],
    });
    expect(refused.headers['content-type']).toMatch(/json/);
    expect((refused.json() as { code: number }).code).not.toBe(200);
    expect(await newest(gw.app, admin)).toMatchObject({
      kind: 'export',
      resource: 'withdrawalReview',
      export: { rows: 0 },
    });
    const unknown = await call(gw.app, admin, 'POST', GATEWAY_PATHS.export, {
      resource: 'nothing',
      query: {},
      columns: [{ key: 'id', label: 'ID', kind: 'number' }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'BAD_REQUEST' });
  });
});

describe('GET /api/audit', () => {
  it('filters by actor, resource, action, target and time, pages newest first', async () => {
    // A user no earlier test touched.
    const user = store()
      .users.all()
      .filter((u) => u.status === 'normal')
      .at(-7)!;
    const from = new Date().toISOString();
    await call(gw.app, admin, 'POST', `${PERMISSIONS.userProfile}/ban`, { id: user.id, reason: 'Filter me' });
    await call(gw.app, admin, 'POST', `${PERMISSIONS.userProfile}/unban`, { id: user.id });

    const byTarget = await trail(gw.app, admin, `?target=${user.id}&resource=users`);
    expect(byTarget.list.map((e) => e.action)).toEqual(['unban', 'ban']);
    expect(byTarget.total).toBe(2);
    const banOnly = await trail(gw.app, admin, `?target=${user.id}&action=ban`);
    expect(banOnly.list.map((e) => e.reason)).toEqual(['Filter me']);
    expect((await trail(gw.app, admin, `?actor=ADMIN&target=${user.id}`)).total).toBe(2);
    const adminId = byTarget.list[0]!.actor.userId!;
    expect((await trail(gw.app, admin, `?actor=${adminId}&target=${user.id}`)).total).toBe(2);
    expect((await trail(gw.app, admin, `?actor=operator&target=${user.id}`)).total).toBe(0);
    expect((await trail(gw.app, admin, `?since=${encodeURIComponent(from)}&target=${user.id}`)).total).toBe(2);
    expect((await trail(gw.app, admin, `?until=2000-01-01&target=${user.id}`)).total).toBe(0);
    expect((await trail(gw.app, admin, `?kind=login&pageSize=200`)).list.every((e) => e.kind === 'login')).toBe(true);

    const all = await trail(gw.app, admin, '?pageSize=5');
    const second = await trail(gw.app, admin, '?pageSize=5&pageNum=2');
    const seqs = [...all.list, ...second.list].map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => y - x));
    expect(new Set(seqs).size).toBe(10);
    expect(all.total).toBe(second.total);
  });

  it('answers the filtered trail as CSV with every entry, and records that export', async () => {
    const response = await gw.app.inject({
      method: 'GET',
      url: `${GATEWAY_PATHS.audit}?format=csv&resource=users&action=ban`,
      cookies: admin,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    const [header, ...rows] = parseCsv(response.body.slice(1));
    expect(header).toContain('hash');
    const expected = await trail(gw.app, admin, '?resource=users&action=ban&pageSize=200');
    expect(rows.map((r) => Number(r[0]))).toEqual(expected.list.map((e) => e.seq));
    expect(rows.every((r) => r[header!.indexOf('action')] === 'ban')).toBe(true);
    expect(await newest(gw.app, admin)).toMatchObject({
      kind: 'export',
      resource: 'audit',
      export: { filters: { resource: 'users', action: 'ban' }, rows: rows.length },
    });
  });

  it('refuses a session without the operation log permission, and bad filters', async () => {
    const operator = await logInAs(gw.app, 'operator', 'operator123');
    const refused = await gw.app.inject({ method: 'GET', url: GATEWAY_PATHS.audit, cookies: operator });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 403, error: 'FORBIDDEN' });
    const none = await gw.app.inject({ method: 'GET', url: GATEWAY_PATHS.audit });
    expect(none.json()).toMatchObject({ code: 401, error: 'NOT_LOGGED_IN' });
    for (const query of ['?since=yesterday', '?pageSize=1000', '?kind=other', '?pageNum=0']) {
      const bad = await gw.app.inject({ method: 'GET', url: `${GATEWAY_PATHS.audit}${query}`, cookies: admin });
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json()).toMatchObject({ error: 'BAD_REQUEST' });
    }
  });

  it("answers a record's history to whoever may open its screen, and no one else", async () => {
    const operator = await logInAs(gw.app, 'operator', 'operator123');
    const user = store()
      .users.all()
      .find((u) => u.status === 'normal')!;
    await call(gw.app, admin, 'POST', `${PERMISSIONS.userProfile}/ban`, { id: user.id, reason: 'History reason' });
    const history = await gw.app.inject({
      method: 'GET',
      url: `${GATEWAY_PATHS.auditHistory}?resource=users&targets=${user.id},1`,
      cookies: operator,
    });
    expect(history.statusCode).toBe(200);
    const list = (history.json() as { data: { list: AuditEntry[] } }).data.list;
    expect(list[0]).toMatchObject({
      action: 'ban',
      reason: 'History reason',
      actor: { account: 'admin' },
      targets: [String(user.id)],
    });
    expect(list.every((e) => e.resource === 'users')).toBe(true);
    const other = await gw.app.inject({
      method: 'GET',
      url: `${GATEWAY_PATHS.auditHistory}?resource=withdrawalReview&targets=1`,
      cookies: operator,
    });
    expect(other.json()).toMatchObject({ error: 'FORBIDDEN' });
  });
});

describe('what the trail never holds', () => {
  it('keeps no password, token or one-time code, wherever it was sent', async () => {
    const secrets = [
      'Admin-Pass-7731x',
      'Reset-Pass-8842y',
      'Wrong-Login-9953z',
      '918273',
      'sms-Secret-Value-42',
      'push-Master-Secret-77',
    ];
    const admins = RESOURCES.find((r) => r.id === 'admins')! as ListResource;
    await call(gw.app, admin, 'POST', resourceCalls(admins).save, {
      account: 'audit_keeper',
      nickname: 'Keeper',
      password: secrets[0],
      permissions: [PERMISSIONS.userProfile],
      status: 'enabled',
    });
    const created = store()
      .accounts.all()
      .find((a) => a.account === 'audit_keeper')!;
    await call(gw.app, admin, 'POST', resourceCalls(admins).action('resetPassword'), {
      id: created.id,
      password: secrets[1],
    });
    await gw.app.inject({
      method: 'POST',
      url: CALLS.login,
      headers: { origin: 'http://localhost:80', host: 'localhost:80' },
      payload: { account: 'audit_keeper', password: secrets[2], code: '445566' },
    });
    const google = RESOURCES.find((r) => r.id === 'googleVerify')! as ListResource;
    await call(gw.app, admin, 'POST', resourceCalls(google).action('bind'), { id: created.id });
    await call(gw.app, admin, 'POST', resourceCalls(google).action('confirmBind'), {
      id: created.id,
      otpCode: secrets[3],
    });
    const sms = resourceCalls(RESOURCES.find((r) => r.id === 'smsConfig')!).config;
    const smsNow = (await call(gw.app, admin, 'GET', sms)).json() as { data: Record<string, unknown> };
    await call(gw.app, admin, 'POST', sms, { ...smsNow.data, accessSecret: secrets[4] });
    const push = resourceCalls(RESOURCES.find((r) => r.id === 'pushConfig')!).config;
    const pushNow = (await call(gw.app, admin, 'GET', push)).json() as { data: Record<string, unknown> };
    await call(gw.app, admin, 'POST', push, { ...pushNow.data, masterSecret: secrets[5] });

    const text = await fileText(gw.dataDir);
    for (const secret of [...secrets, '445566', 'admin123', 'operator123']) expect(text, secret).not.toContain(secret);
    // Nor the backend's token nor the sealed cookie that carries it.
    const token = new SessionSealer(gw.config.sessionSecret).unseal(admin.token!)!.token;
    expect(text).not.toContain(token);
    expect(text).not.toContain(admin.token!);
    // A secret that was set shows as changed, never as itself.
    const smsEntry = (await trail(gw.app, admin, '?resource=smsConfig')).list[0]!;
    expect(smsEntry.after?.accessSecret).toBe(AUDIT_SECRET_CHANGED);
    const reset = (await trail(gw.app, admin, `?resource=admins&action=resetPassword&target=${created.id}`)).list[0]!;
    expect(reset.inputs?.password).toBe(AUDIT_SECRET_CHANGED);
  });
});

describe('the file', () => {
  it('is one intact chain of every entry written', async () => {
    const verdict = await verifyFile(gw.dataDir);
    expect(verdict).toMatchObject({ intact: true, entries: await total() });
  });
});
