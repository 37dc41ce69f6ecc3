import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionDef, FieldDef, ListAnswer, ListResource, Resource } from '../../server/contract/index.js';
import { RESOURCES, VALIDATION_MESSAGES_ZH, formFields, resourceCalls } from '../../server/contract/index.js';
import { BackendClient, type BackendSession } from '../../sandbox/client.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { totp } from '../../sandbox/lib/totp.js';

/**
 * Every call the resource contract declares, made against the sandbox backend as the full
 * administrator: this is the test that fails when a declared screen calls something the sandbox
 * does not answer, or answers a valid request with an error.
 */

type Row = Record<string, unknown>;

let sandbox: StartedSandbox;
let client: BackendClient;
let admin: BackendSession;
let userAccount = '';
let groupId = 0;
let counter = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 3, withdrawalTickMs: 0 });
  client = new BackendClient(sandbox.url);
  admin = await client.login('admin', 'admin123');
  const users = await list(
    RESOURCES.find((r) => r.id === 'users')!,
    { status: 'normal', pageSize: 1 },
  );
  userAccount = String(users.list[0]!.account);
  const groups = await list(
    RESOURCES.find((r) => r.id === 'groups')!,
    { status: 'normal', sort: '-memberCount', pageSize: 1 },
  );
  groupId = Number(groups.list[0]!.id);
});

afterAll(async () => {
  await sandbox?.close();
});

async function call(path: string, options: { query?: Record<string, string | number>; body?: unknown } = {}) {
  const answer = await client.call<unknown>(path, { session: admin, ...options });
  return answer.envelope;
}

async function expectOk(
  path: string,
  options: { query?: Record<string, string | number>; body?: unknown } = {},
): Promise<unknown> {
  const envelope = await call(path, options);
  expect(envelope.code, `${path}: ${envelope.msg}`).toBe(200);
  return envelope.data;
}

async function list(resource: Resource, query: Record<string, string | number> = {}): Promise<ListAnswer<Row>> {
  return (await expectOk(resourceCalls(resource).list, { query })) as ListAnswer<Row>;
}

/** A valid value of a field, fresh on every call where the backend wants unique values. */
function sample(resource: Resource, field: FieldDef): unknown {
  const n = ++counter;
  if (field.key === 'account' && resource.id === 'admins') return `parity_${n}`;
  if (field.key === 'account' || field.key === 'userAccount') return userAccount;
  if (field.key === 'groupId') return groupId;
  if (field.key === 'version') return `9.${n}.0`;
  if (field.key === 'buildNumber') return 100_000 + n;
  if (field.key === 'themeColor') return '#336699';
  // Invitation codes are letters and digits, typed on phones.
  if (field.key === 'code' && resource.id === 'inviteCodes') return `PARITY${n}`;
  if (field.key === 'phone') return '+8613800138000';
  switch (field.kind) {
    case 'text':
    case 'longtext':
      return `Parity ${field.key} ${n}`.slice(0, field.maxLength ?? 100);
    case 'number':
      return Math.max(field.min ?? 1, Math.min(field.max ?? 10, 10));
    case 'money':
      return Math.max(field.min ?? 0, Math.min(field.max ?? 10_000, 10_000));
    case 'switch':
      return true;
    case 'select':
      return field.options![0];
    case 'link':
      return `https://parity.example.com/${n}`;
    case 'image':
      return 'emoji/smile.svg';
    case 'datetime':
      return new Date(Date.now() + 30 * 86_400_000).toISOString();
    case 'date':
      return '2030-01-01';
    case 'ip':
      return `198.51.100.${n % 250}`;
    case 'lines':
      return field.options ? [field.options[0]] : [`parity word ${n}`];
    case 'password':
      return `secret-pass-${n}`;
  }
}

function sampleRecord(resource: Resource, fields: readonly FieldDef[]): Row {
  return Object.fromEntries(fields.map((f) => [f.key, sample(resource, f)]));
}

/** The first required field a form could leave empty, with the message the backend must answer. */
function emptied(fields: readonly FieldDef[]): { key: string; msg: string } | null {
  const field = fields.find((f) => f.required && f.kind !== 'switch');
  if (!field) return null;
  return {
    key: field.key,
    msg:
      field.kind === 'link' && field.download
        ? VALIDATION_MESSAGES_ZH.downloadLinkEmpty
        : VALIDATION_MESSAGES_ZH.required,
  };
}

function filterQuery(resource: ListResource): Record<string, string> {
  const field = resource.fields.find((f) => f.filter);
  if (!field) return {};
  if (field.kind === 'select') return { [field.key]: field.options![0]! };
  if (field.kind === 'switch') return { [field.key]: 'true' };
  if (field.kind === 'date' || field.kind === 'datetime') return { [`${field.key}From`]: '2000-01-01' };
  return { [field.key]: 'x' };
}

function sortText(resource: ListResource): string {
  const field = resource.fields.find((f) => f.sortable);
  return field ? `-${field.key}` : resource.defaultSort;
}

/** A row the action applies to, the given one first, else searched over the list. */
async function targetRows(
  resource: ListResource,
  action: ActionDef,
  preferred: Row | null,
  count: number,
): Promise<Row[]> {
  const applies = (row: Row) => !action.when || action.when.in.some((v) => v === row[action.when!.field]);
  const picked: Row[] = preferred && applies(preferred) ? [preferred] : [];
  for (let page = 1; picked.length < count && page <= 20; page++) {
    const answer = await list(resource, { pageSize: 200, pageNum: page, sort: '-id' });
    for (const row of answer.list)
      if (applies(row) && !picked.some((p) => p.id === row.id) && picked.length < count) picked.push(row);
    if (answer.list.length < 200) break;
  }
  return picked;
}

async function checkActions(resource: Resource, preferred: Row | null): Promise<void> {
  const calls = resourceCalls(resource);
  for (const action of resource.kind === 'list' || resource.kind === 'settings' ? (resource.actions ?? []) : []) {
    const body: Row = sampleRecord(resource, action.inputs ?? []);
    if (action.target !== 'page') {
      const rows = await targetRows(resource as ListResource, action, preferred, action.target === 'bulk' ? 2 : 1);
      expect(rows.length, `${resource.id}.${action.name}: a row to act on`).toBeGreaterThan(0);
      if (action.target === 'row') body.id = rows[0]!.id;
      else body.ids = rows.map((r) => r.id);
    }
    // The one input no sample can make up: the code an authenticator would show for the secret
    // the backend handed out (the test acts as the administrator's phone).
    if (action.name === 'confirmBind')
      body.otpCode = totp(sandbox.app.sandbox.accounts.get(Number(body.id))!.googlePendingSecret!, Date.now());
    const data = await expectOk(calls.action(action.name), { body });
    if (action.showsResult) expect(data, `${resource.id}.${action.name} shows a result`).toBeTypeOf('object');
  }
}

async function checkList(resource: ListResource): Promise<void> {
  const calls = resourceCalls(resource);
  const filtered = await list(resource, { ...filterQuery(resource), sort: sortText(resource), pageSize: 5 });
  expect(Array.isArray(filtered.list)).toBe(true);
  expect(filtered.total).toBeTypeOf('number');
  if (resource.totals)
    for (const key of resource.totals)
      expect(filtered.totals?.[key], `${resource.id} totals.${key}`).toBeTypeOf('number');
  const all = await list(resource, { pageSize: 5 });
  expect(all.total, `${resource.id} has seeded rows`).toBeGreaterThan(0);
  const first = all.list[0]!;
  for (const field of resource.fields.filter((f) => f.column))
    expect(first, `${resource.id}.${field.key}`).toHaveProperty(field.key);

  if (resource.detail) await expectOk(calls.detail, { query: { id: Number(first.id) } });

  let created: Row | null = null;
  if (resource.create) {
    const fields = formFields(resource, 'create');
    created = (await expectOk(calls.save, { body: sampleRecord(resource, fields) })) as Row;
    expect(created.id, `${resource.id} created id`).toBeTypeOf('number');
    const broken = emptied(fields);
    if (broken) {
      const refused = await call(calls.save, { body: { ...sampleRecord(resource, fields), [broken.key]: '' } });
      expect(refused.code, `${resource.id} refuses an empty ${broken.key}`).toBe(400);
      expect(refused.msg).toBe(broken.msg);
    }
  }
  if (resource.edit) {
    const target = created ?? first;
    const fields = formFields(resource, 'edit');
    const values = Object.fromEntries(fields.map((f) => [f.key, target[f.key] ?? sample(resource, f)]));
    await expectOk(calls.save, { body: { ...values, id: target.id } });
    const broken = emptied(fields);
    if (broken) {
      const refused = await call(calls.save, { body: { ...values, id: target.id, [broken.key]: '' } });
      expect(refused.code, `${resource.id} refuses an empty ${broken.key} on edit`).toBe(400);
      expect(refused.msg).toBe(broken.msg);
    }
  }

  await checkActions(resource, created);

  if (resource.remove) {
    const doomed = created ?? (await list(resource, { pageSize: 1, sort: '-id' })).list[0]!;
    const answer = (await expectOk(calls.remove, { body: { ids: [doomed.id] } })) as { deleted: number };
    expect(answer.deleted).toBe(1);
  }
}

describe('contract parity: the sandbox answers every declared call', () => {
  // Counted off RESOURCES, never written down: a new declaration changes the count and nothing here.
  it('declares each resource once, under an id and a path of its own', () => {
    expect(RESOURCES.length).toBeGreaterThan(0);
    expect(new Set(RESOURCES.map((r) => r.id)).size).toBe(RESOURCES.length);
    expect(new Set(RESOURCES.map((r) => r.path)).size).toBe(RESOURCES.length);
  });

  it.each(RESOURCES.map((r) => [r.id, r] as const))('%s', async (_id, resource) => {
    const calls = resourceCalls(resource);
    if (resource.kind === 'list') await checkList(resource);
    else if (resource.kind === 'settings') {
      const config = (await expectOk(calls.config)) as Row;
      for (const field of resource.fields) {
        expect(config, `${resource.id}.${field.key}`).toHaveProperty(field.key);
        if (field.kind === 'password') expect(config[field.key]).toBe('');
      }
      await expectOk(calls.config, { method: 'POST', body: config } as never);
      const broken = emptied(resource.fields);
      if (broken) {
        const refused = await call(calls.config, { body: { ...config, [broken.key]: '' } });
        expect(refused.code).toBe(400);
        expect(refused.msg).toBe(broken.msg);
      }
      await checkActions(resource, null);
    } else if (resource.kind === 'statistics') {
      const query: Record<string, string> = { startDate: '2025-01-01', endDate: '2025-01-31' };
      const plain = (await expectOk(calls.list, { query })) as ListAnswer<Row>;
      expect(plain.list.length).toBeGreaterThanOrEqual(31);
      expect(plain.total).toBe(plain.list.length);
      for (const series of resource.series)
        expect(plain.list[0], `${resource.id}.${series.key}`).toHaveProperty(series.key);
      if (resource.dimension) {
        const one = (await expectOk(calls.list, {
          query: { ...query, [resource.dimension.key]: resource.dimension.options[0]! },
        })) as ListAnswer<Row>;
        expect(one.list).toHaveLength(31);
        expect(one.list.every((row) => row[resource.dimension!.key] === resource.dimension!.options[0])).toBe(true);
      }
    } else {
      const inputs = sampleRecord(resource, resource.inputs);
      if (resource.preview) await expectOk(calls.preview, { query: inputs as Record<string, string | number> });
      if (resource.confirmText !== undefined) {
        const refused = await call(calls.action(resource.run), { body: inputs });
        expect(refused.code).toBe(400);
      }
      await expectOk(calls.action(resource.run), { body: { ...inputs, confirm: resource.confirmText } });
    }
  });
});
