import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListAnswer, ListResource } from '../../server/contract/index.js';
import {
  BILLING_RECORDS,
  GROUPS,
  LOGIN_RECORDS,
  RECORD_ID_FILTER,
  RESOURCES,
  USERS,
  WITHDRAWAL_REVIEW,
  resourceCalls,
} from '../../server/contract/index.js';
import { BackendClient, type BackendSession } from '../../sandbox/client.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';

/**
 * The calls a record's page and the header search make of the sandbox: one record by the list's
 * `id` filter, a user's own withdrawals, bills and logins by their account filters, and the
 * keyword search over ids, phones and payee accounts.
 */

type Row = Record<string, unknown>;

let sandbox: StartedSandbox;
let client: BackendClient;
let admin: BackendSession;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 25, withdrawalTickMs: 0 });
  client = new BackendClient(sandbox.url);
  admin = await client.login('admin', 'admin123');
});

afterAll(async () => {
  await sandbox?.close();
});

async function list(
  resource: Pick<ListResource, 'path'>,
  query: Record<string, string | number>,
): Promise<ListAnswer<Row>> {
  const { envelope } = await client.call<ListAnswer<Row>>(resourceCalls(resource).list, { session: admin, query });
  expect(envelope.code, envelope.msg).toBe(200);
  return envelope.data!;
}

const lists = RESOURCES.filter((r): r is ListResource => r.kind === 'list');

describe('a record by its id', () => {
  it.each(lists.map((r) => [r.id, r] as const))('%s answers exactly the record asked for', async (_id, resource) => {
    const some = (await list(resource, { pageSize: 3 })).list;
    expect(some.length, `${resource.id} has seeded records`).toBeGreaterThan(0);
    const wanted = some[some.length - 1]!;
    const found = await list(resource, { [RECORD_ID_FILTER]: String(wanted.id) });
    expect(found.total).toBe(1);
    expect(found.list.map((r) => r.id)).toEqual([wanted.id]);
  });

  it('answers nothing for an id that does not exist', async () => {
    expect(await list(USERS, { [RECORD_ID_FILTER]: '987654321' })).toMatchObject({ list: [], total: 0 });
  });
});

describe("a user's related lists", () => {
  it("filters withdrawals, bills and logins by the user's exact account", async () => {
    // A user with withdrawals, so every related list has something to show.
    const application = (await list(WITHDRAWAL_REVIEW, { pageSize: 1 })).list[0]!;
    const account = String(application.userAccount);
    for (const [resource, key] of [
      [WITHDRAWAL_REVIEW, 'userAccount'],
      [BILLING_RECORDS, 'userAccount'],
      [LOGIN_RECORDS, 'account'],
    ] as const) {
      const answer = await list(resource, { [key]: account, pageSize: 200 });
      expect(answer.list.length, `${resource.id} of ${account}`).toBeGreaterThan(0);
      expect(answer.list.every((r) => r[key] === account)).toBe(true);
      // Exact, not a substring: a prefix of the account matches nobody's.
      expect((await list(resource, { [key]: account.slice(0, -1) })).total).toBe(0);
    }
  });
});

describe('the keyword search of the header', () => {
  it('finds a user by id, phone, account and nickname', async () => {
    const user = (await list(USERS, { pageSize: 50 })).list.find((u) => typeof u.phone === 'string' && u.phone !== '')!;
    for (const text of [String(user.id), String(user.phone), String(user.account), String(user.nickname)]) {
      const ids = (await list(USERS, { keyword: text, pageSize: 100 })).list.map((u) => u.id);
      expect(ids, text).toContain(user.id);
    }
  });

  it('finds a group by id and name, and a withdrawal by id and payee account', async () => {
    const group = (await list(GROUPS, { pageSize: 1 })).list[0]!;
    for (const text of [String(group.id), String(group.name)]) {
      expect(
        (await list(GROUPS, { keyword: text, pageSize: 100 })).list.map((g) => g.id),
        text,
      ).toContain(group.id);
    }
    const application = (await list(WITHDRAWAL_REVIEW, { pageSize: 1 })).list[0]!;
    for (const text of [String(application.id), String(application.accountInfo)]) {
      expect(
        (await list(WITHDRAWAL_REVIEW, { keyword: text, pageSize: 100 })).list.map((w) => w.id),
        text,
      ).toContain(application.id);
    }
  });
});
