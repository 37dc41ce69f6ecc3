import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS, RESOURCES, resourceCalls, type ListResource } from '../../server/contract/index.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { removeTempDirs } from '../support/processes.js';
import { auditGateway, call, logInAs, newest, type AuditGateway, type Cookies } from './support/audit-rig.js';

/**
 * Entries that read as what happened: an action that declares the fields it sets (a ban) is
 * recorded with those fields before and after, the record it acted on by its name as well as its
 * id, and a settings save held for a second approver by what it is rather than by its path.
 */

let sandbox: StartedSandbox;
let gw: AuditGateway;
let admin: Cookies;
const store = () => sandbox.app.sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, withdrawalTickMs: 0 });
  gw = await auditGateway(sandbox, { DUAL_CONTROL_ABOVE: '100000', DUAL_CONTROL_SETTINGS: 'withdrawalConfig' });
  admin = await logInAs(gw.app, 'admin', 'admin123');
});

afterAll(async () => {
  await gw?.app.close();
  await sandbox?.close();
  removeTempDirs();
});

describe('actions that declare what they set', () => {
  it('declares only fields of their own records', () => {
    for (const resource of RESOURCES) {
      if (resource.kind !== 'list') continue;
      const keys = new Set(resource.fields.map((f) => f.key));
      for (const action of resource.actions ?? []) {
        for (const key of Object.keys(action.sets ?? {}))
          expect(keys.has(key), `${resource.id}.${action.name}`).toBe(true);
      }
    }
    const users = RESOURCES.find((r) => r.id === 'users') as ListResource;
    expect(users.actions?.find((a) => a.name === 'ban')?.sets).toEqual({ status: 'banned' });
  });

  it('records a ban as Normal -> Banned and names the user by account, and the unban the other way', async () => {
    const user = store()
      .users.all()
      .find((u) => u.status === 'normal')!;
    const ban = await call(gw.app, admin, 'POST', `${PERMISSIONS.userProfile}/ban`, { id: user.id, reason: 'Spam' });
    expect(ban.json()).toMatchObject({ code: 200 });
    const banned = await newest(gw.app, admin);
    expect(banned).toMatchObject({ action: 'ban', targets: [String(user.id)], names: { [user.id]: user.account } });
    expect(banned.before).toEqual({ status: 'normal' });
    expect(banned.after).toEqual({ status: 'banned' });

    await call(gw.app, admin, 'POST', `${PERMISSIONS.userProfile}/unban`, { id: user.id });
    const unbanned = await newest(gw.app, admin);
    expect(unbanned).toMatchObject({ action: 'unban', names: { [user.id]: user.account } });
    expect(unbanned.before).toEqual({ status: 'banned' });
    expect(unbanned.after).toEqual({ status: 'normal' });
  });

  it('records a ban over a selection with the value set, reading no record', async () => {
    const [a, b] = store()
      .users.all()
      .filter((u) => u.status === 'normal')
      .slice(0, 2);
    await call(gw.app, admin, 'POST', `${PERMISSIONS.userProfile}/ban`, { ids: [a!.id, b!.id], reason: 'Ring' });
    const entry = await newest(gw.app, admin);
    expect(entry).toMatchObject({
      action: 'ban',
      targets: [String(a!.id), String(b!.id)],
      after: { status: 'banned' },
    });
    expect(entry.before).toBeUndefined();
    expect(entry.names).toBeUndefined();
  });

  it('names the record of an edit', async () => {
    const user = store()
      .users.all()
      .find((u) => u.status === 'normal')!;
    const list = await call(gw.app, admin, 'GET', `${PERMISSIONS.userProfile}/list?keyword=${user.account}`);
    const row = (list.json() as { data: { list: Record<string, unknown>[] } }).data.list.find((r) => r.id === user.id)!;
    await call(gw.app, admin, 'POST', `${PERMISSIONS.userProfile}/save`, { ...row, nickname: 'Named in the trail' });
    expect(await newest(gw.app, admin)).toMatchObject({ action: 'update', names: { [user.id]: user.account } });
  });
});

describe('a held settings save', () => {
  it('is recorded as a settings save, not by its path', async () => {
    const path = resourceCalls(RESOURCES.find((r) => r.id === 'withdrawalConfig')!).config;
    const current = ((await call(gw.app, admin, 'GET', path)).json() as { data: Record<string, unknown> }).data;
    const held = await call(gw.app, admin, 'POST', path, { ...current, notice: 'Held notice' });
    expect(held.json()).toMatchObject({ code: 200, data: { held: true } });
    expect(await newest(gw.app, admin)).toMatchObject({
      kind: 'hold',
      resource: 'withdrawalConfig',
      action: 'saveConfig',
    });
  });
});
