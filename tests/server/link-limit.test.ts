import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_MAX_LENGTH, RESOURCES, resourceCalls, type ListResource } from '../../server/contract/index.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { removeTempDirs } from '../support/processes.js';
import { auditGateway, call, logInAs, trail, type AuditGateway, type Cookies } from './support/audit-rig.js';

/**
 * The contract's limit on link fields, held by the gateway: a settings save or a record's save with
 * a link longer than LINK_MAX_LENGTH is refused with LINK_TOO_LONG before the backend sees it (its
 * value stays as it was), and a link at the limit passes.
 */

let sandbox: StartedSandbox;
let gw: AuditGateway;
let admin: Cookies;

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

const link = (length: number) => `https://help.example.com/${'a'.repeat(length - 'https://help.example.com/'.length)}`;

describe('link fields over the limit', () => {
  it('refuses a settings save whose link is too long, naming the field, and keeps the value before', async () => {
    const path = resourceCalls(RESOURCES.find((r) => r.id === 'siteFunctions')!).config;
    const current = ((await call(gw.app, admin, 'GET', path)).json() as { data: Record<string, unknown> }).data;
    const entries = (await trail(gw.app, admin, '?pageSize=1')).total;

    const refused = await call(gw.app, admin, 'POST', path, { ...current, customerServiceUrl: link(3_000) });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'LINK_TOO_LONG',
      data: { field: 'customerServiceUrl', max: LINK_MAX_LENGTH, errors: { customerServiceUrl: 'linkTooLong' } },
    });
    const after = ((await call(gw.app, admin, 'GET', path)).json() as { data: Record<string, unknown> }).data;
    expect(after.customerServiceUrl).toBe(current.customerServiceUrl);
    // Refused before it reached the backend: no change to record.
    expect((await trail(gw.app, admin, '?pageSize=1')).total).toBe(entries);

    const atLimit = await call(gw.app, admin, 'POST', path, { ...current, customerServiceUrl: link(LINK_MAX_LENGTH) });
    expect(atLimit.json()).toMatchObject({ code: 200 });
  });

  it("refuses a record's save whose link is too long", async () => {
    const entries = RESOURCES.find((r) => r.id === 'discover') as ListResource;
    const refused = await call(gw.app, admin, 'POST', resourceCalls(entries).save, {
      title: 'Too long',
      url: link(LINK_MAX_LENGTH + 1),
    });
    expect(refused.json()).toMatchObject({ error: 'LINK_TOO_LONG', data: { field: 'url' } });
  });
});
