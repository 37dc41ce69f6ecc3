import { describe, expect, it } from 'vitest';
import { RESOURCES, type ListResource } from '../../server/contract/index.js';
import { BackendAuth } from '../../server/backend-map/auth.js';
import { loadBackendMap, parseBackendMap } from '../../server/backend-map/load.js';
import { BackendMap } from '../../server/backend-map/engine.js';
import { consoleCalls } from '../../server/backend-map/calls.js';
import { GatewayLists } from '../../server/backend-map/gateway-lists.js';
import { fillTemplate } from '../../server/backend-map/template.js';
import { TtlCache } from '../../server/backend-map/ttl-cache.js';
import { itemRow, pageOf, sortRows } from '../../server/backend-map/whole-list.js';
import { KeptStore, KEPT_MAX_RECORDS } from '../../server/backend-map/kept-store.js';
import { sendPlanned } from '../../server/backend-map/plan-run.js';

/**
 * The expressions for a backend that does less than the console asks (ejabberd's API): the pure
 * parts, each both ways where it has two. The whole path against the real server is
 * tests/server/ejabberd-gateway.test.ts.
 */

const users = RESOURCES.find((r) => r.id === 'users') as ListResource;
type Row = Record<string, unknown>;
const rows: Row[] = ['carol', 'Ann', 'bob', 'dave', 'émile'].map((name, i) => ({
  id: name,
  account: name,
  nickname: i % 2 === 0 ? `Nick ${name}` : undefined,
  status: name === 'bob' ? 'banned' : 'normal',
}));
const view = (sort: string) => (sort === '' ? rows : sortRows(rows, sort));

describe('a whole list paged at the gateway', () => {
  it('pages, counts and sorts both ways, absent values last', () => {
    const first = pageOf(users, { pageNum: 1, pageSize: 2, sort: 'account' }, view);
    expect(first).toEqual({ list: [rows[1], rows[2]], total: 5 });
    expect(pageOf(users, { pageNum: 3, pageSize: 2, sort: 'account' }, view).list).toEqual([rows[4]]);
    expect(pageOf(users, { pageNum: 1, pageSize: 2, sort: '-account' }, view).list.map((r) => r.id)).toEqual([
      'émile',
      'dave',
    ]);
    expect(sortRows([{ n: 2 }, {}, { n: 1 }], '-n')).toEqual([{ n: 2 }, { n: 1 }, {}]);
  });

  it('searches the keyword fields without case, filters, finds one id, and ignores a sort the screen does not offer', () => {
    expect(pageOf(users, { keyword: 'NICK C' }, view).list.map((r) => r.id)).toEqual(['carol']);
    expect(pageOf(users, { status: 'banned' }, view)).toEqual({ list: [rows[2]], total: 1 });
    expect(pageOf(users, { id: 'dave' }, view).list).toEqual([rows[3]]);
    // nickname is not sortable on the users screen: the default sort (absent here) keeps the order.
    expect(pageOf(users, { sort: 'nickname' }, view).list.map((r) => r.id)).toEqual(rows.map((r) => r.id));
  });

  it('makes rows of scalar and object items, a JID cut at "@"', () => {
    expect(itemRow('user1', { id: '{item}', account: '{item}' })).toEqual({ id: 'user1', account: 'user1' });
    expect(
      itemRow({ jid: 'lobby@conference.x', participants: 3 }, { id: '{jid|local}', memberCount: '{participants}' }),
    ).toEqual({
      id: 'lobby',
      memberCount: 3,
    });
  });
});

describe('placeholder filters xml and local', () => {
  it('escapes text placed inside a stanza and cuts a JID', () => {
    const body = fillTemplate('<body>{text|xml}</body>', (n) => (n === 'text' ? `a<b>&"c'` : undefined));
    expect(body).toBe('<body>a&lt;b&gt;&amp;&quot;c&apos;</body>');
    expect(fillTemplate({ user: '{id|local}' }, () => 'bob@chat.test/phone')).toEqual({ user: 'bob' });
  });
});

describe('the kept-value store', () => {
  it('keeps, drops and bounds what an action left', async () => {
    const store = new KeptStore(null);
    await store.keep('users', ['a', 'b'], {
      inputs: { reason: 'x'.repeat(900) },
      time: '2026-01-01T00:00:00Z',
      by: 'admin',
    });
    expect(store.get('users', 'a')?.inputs.reason).toHaveLength(500);
    await store.drop('users', ['a']);
    expect([...store.idsOf('users').keys()]).toEqual(['b']);
    const many = Array.from({ length: KEPT_MAX_RECORDS + 5 }, (_, i) => `u${i}`);
    await store.keep('users', many, { inputs: {}, time: 't', by: 'admin' });
    expect(store.idsOf('users').size).toBe(KEPT_MAX_RECORDS);
    expect(store.has('users', 'b')).toBe(false);
  });
});

describe('the short-lived cache of backend answers', () => {
  it('shares one read, expires, and bounds its weight', async () => {
    let now = 0;
    let reads = 0;
    const cache = new TtlCache<number[]>({ ttlMs: 100, maxWeight: 5, weigh: (v) => v.length, now: () => now });
    const read = async () => {
      reads += 1;
      return [1, 2, 3];
    };
    await Promise.all([cache.get('a', read), cache.get('a', read)]);
    expect(reads).toBe(1);
    now = 150;
    await cache.get('a', read);
    expect(reads).toBe(2);
    await cache.get('b', read);
    expect(cache.totalWeight).toBeLessThanOrEqual(5);
    expect(cache.size).toBe(1);
    cache.forget('b');
    expect(cache.size).toBe(0);
  });
});

describe('variables, answers without an envelope and a Basic login in a map', () => {
  const text = JSON.stringify({
    variables: {
      host: { env: 'XMPP_HOST', default: 'localhost' },
      muc: { env: 'XMPP_MUC', default: 'conference.{$host}' },
    },
    answer: { status: true, message: '/message' },
    auth: {
      login: {
        path: '/api/registered_users',
        basic: { user: '{account}@{$host}' },
        extra: { host: '{$host}' },
        answer: {},
      },
      token: { headers: ['authorization'], prefix: 'Basic ' },
    },
    resources: { groups: { calls: { list: { path: '/api/rooms', template: { service: '{$muc}' } } } } },
  });

  it('writes the environment into the map, a default using an earlier variable', () => {
    const map = parseBackendMap(text, 'm.json', { XMPP_HOST: 'chat.test' });
    expect(map.auth?.login.extra).toEqual({ host: 'chat.test' });
    expect(map.resources?.groups?.calls?.list?.template).toEqual({ service: 'conference.chat.test' });
    expect(() => parseBackendMap(text, 'm.json', { XMPP_HOST: 'a b' })).toThrow(/host-like/);
    expect(() => parseBackendMap(text.replace('{$muc}', '{$nope}'), 'm.json', {})).toThrow(/no variable "nope"/);
  });

  it('logs in with Basic credentials, lets 2xx in and answers 401 and 403 as a wrong login', () => {
    const map = parseBackendMap(text, 'm.json', {});
    const auth = new BackendAuth(map.auth!);
    const sent = auth.loginRequest({ account: 'admin', password: 'pw', code: '' });
    const basic = Buffer.from('admin@localhost:pw').toString('base64');
    expect(sent.headers).toEqual({ authorization: `Basic ${basic}` });
    expect(JSON.parse(sent.body!.text)).toEqual({ host: 'localhost' });
    expect(auth.readLogin(['admin'], 200, sent)).toEqual({
      ok: true,
      credentials: { token: basic, userId: 'admin@localhost' },
    });
    expect(auth.readLogin({ status: 'error' }, 401, sent)).toMatchObject({ ok: false, code: 1001 });
    expect(auth.readLogin({ status: 'error' }, 403, sent)).toMatchObject({ ok: false, code: 1001 });
    expect(auth.loginRequest({ account: 'root@other.test', password: 'pw', code: '' }).basic?.user).toBe(
      'root@other.test',
    );
    expect(auth.credentials({ token: basic, userId: 'admin@localhost' }, 'POST', '/api/x').headers.authorization).toBe(
      `Basic ${basic}`,
    );
  });
});

describe('a whole list the backend refuses', () => {
  it('answers the refusal to every caller sharing the read, and reads again next time', async () => {
    const map = new BackendMap(loadBackendMap('server/backend-map/bindings/ejabberd.json', {}));
    const list = consoleCalls(users).find((c) => c.kind === 'list')!;
    let reads = 0;
    let refuse = true;
    const send = async () => {
      reads += 1;
      await new Promise((resolve) => setImmediate(resolve));
      return refuse
        ? { status: 403, json: { status: 'error', code: 32, message: 'AccessRules: no right' } }
        : { status: 200, json: ['ann', 'bob'] };
    };
    const lists = new GatewayLists(map, send, new KeptStore(null), { rowConcurrency: 1 });
    const session = { id: 's', token: 't', userId: 'admin@localhost', account: 'admin' };
    const both = await Promise.all([lists.answer(list, {}, session), lists.answer(list, {}, session)]);
    expect(reads).toBe(1);
    for (const answer of both)
      expect(answer).toMatchObject({ status: 403, body: { code: 403, msg: 'AccessRules: no right' } });
    refuse = false;
    const after = await lists.answer(list, { pageSize: 1, sort: 'account' }, session);
    expect(after.body).toMatchObject({ code: 200, data: { total: 2, list: [{ id: 'ann', status: 'normal' }] } });
    expect(reads).toBeGreaterThan(1);
  });
});

describe('pages of a kept whole list, read again and again', () => {
  it('counts a search’s matches and keeps only its page, with the haystacks the caller made once', () => {
    const many: Row[] = Array.from({ length: 50 }, (_, i) => ({
      id: `u${i}`,
      account: i % 2 ? `odd${i}` : `even${i}`,
    }));
    let made = 0;
    const haystacks = (_sort: string, keys: readonly string[]) => {
      made += 1;
      return many.map((row) => keys.map((k) => String(row[k] ?? '').toLowerCase()).join('\u0000'));
    };
    const second = pageOf(users, { keyword: 'ODD', pageNum: 2, pageSize: 10 }, () => many, haystacks);
    expect(second.total).toBe(25);
    expect(second.list.map((r) => r.id)).toEqual([
      'u21',
      'u23',
      'u25',
      'u27',
      'u29',
      'u31',
      'u33',
      'u35',
      'u37',
      'u39',
    ]);
    // Beyond the matches: an empty page, the count still right.
    expect(pageOf(users, { keyword: 'odd', pageNum: 9, pageSize: 10 }, () => many, haystacks)).toEqual({
      list: [],
      total: 25,
    });
    expect(made).toBe(2);
    // The same answer without the caller's haystacks.
    expect(pageOf(users, { keyword: 'ODD', pageNum: 2, pageSize: 10 }, () => many)).toEqual(second);
  });

  it('shows a ban on the next page read and its end after the unban, the list read once', async () => {
    const map = new BackendMap(loadBackendMap('server/backend-map/bindings/ejabberd.json', {}));
    const list = consoleCalls(users).find((c) => c.kind === 'list')!;
    let reads = 0;
    const send = async (request: { path: string }) => {
      if (request.path.endsWith('/registered_users')) {
        reads += 1;
        return { status: 200, json: ['ann', 'bob', 'carol'] };
      }
      return { status: 200, json: { content: '', status: "Registered but didn't login" } };
    };
    const kept = new KeptStore(null);
    const lists = new GatewayLists(map, send, kept, { rowConcurrency: 1 });
    const session = { id: 's', token: 't', userId: 'admin@localhost', account: 'admin' };
    const statuses = async () => {
      const answer = await lists.answer(list, { sort: 'account' }, session);
      return (answer.body.data as { list: Row[] }).list.map((r) => `${String(r.id)}:${String(r.status)}`);
    };
    expect(await statuses()).toEqual(['ann:normal', 'bob:normal', 'carol:normal']);
    const before = kept.version;
    await kept.keep('users', ['bob'], { inputs: {}, time: 't', by: 'admin' });
    expect(kept.version).toBeGreaterThan(before);
    expect(await statuses()).toEqual(['ann:normal', 'bob:banned', 'carol:normal']);
    await kept.drop('users', ['bob']);
    expect(await statuses()).toEqual(['ann:normal', 'bob:normal', 'carol:normal']);
    expect(reads).toBe(1);
  });
});

describe('peeking into the short-lived cache', () => {
  it('answers a fresh value at once, nothing for a stale one, and lets the oldest go first', async () => {
    let now = 0;
    const cache = new TtlCache<{ n: number }>({ ttlMs: 100, maxWeight: 2, now: () => now });
    expect(cache.peek('a')).toBeUndefined();
    await cache.get('a', async () => ({ n: 1 }));
    now = 10;
    await cache.get('b', async () => ({ n: 2 }));
    expect(cache.peek('a')).toEqual({ n: 1 });
    // A read does not keep an entry longer: 'a' is still the oldest and goes first.
    await cache.get('c', async () => ({ n: 3 }));
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peek('b')).toEqual({ n: 2 });
    now = 200;
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.size).toBe(1);
  });
});

describe('records made and deleted over several calls, a whole list cut to a prefix', () => {
  const friends = RESOURCES.find((r) => r.id === 'defaultFriends') as ListResource;
  const map = new BackendMap(
    loadBackendMap('server/backend-map/bindings/ejabberd.json', { EJABBERD_HOST: 'chat.test' }),
  );
  const callOf = (kind: string) => consoleCalls(friends).find((c) => c.kind === kind)!;
  const sentOf = (request: { path: string; body?: { text: string } }) =>
    `${request.path} ${request.body ? String((JSON.parse(request.body.text) as Row).group) : ''}`;

  it('lists only the items named with the prefix, read through the fields', async () => {
    const send = async () => ({
      status: 200,
      json: ['everyone', 'console-friend-ann', 'console-everyone-ann', 'console-friend-bob'],
    });
    const lists = new GatewayLists(map, send, new KeptStore(null), { rowConcurrency: 1 });
    const session = { id: 's', token: 't', userId: 'admin@chat.test', account: 'admin' };
    const answer = await lists.answer(callOf('list'), { pageSize: 10 }, session);
    expect(answer.body).toMatchObject({
      code: 200,
      data: {
        total: 2,
        list: [
          { id: 'ann', userAccount: 'ann' },
          { id: 'bob', userAccount: 'bob' },
        ],
      },
    });
  });

  it('creates with each call in order, from the same form', () => {
    const prepared = map.prepare(callOf('save'), { userAccount: 'ann' });
    if ('unsupported' in prepared) throw new Error(prepared.unsupported);
    expect([prepared.request, ...(prepared.also ?? []).map((s) => s.request)].map(sentOf)).toEqual([
      '/api/srg_create console-friend-ann',
      '/api/srg_create console-everyone-ann',
      '/api/srg_user_add console-friend-ann',
      '/api/srg_user_add console-everyone-ann',
    ]);
  });

  it('deletes each id with its own further calls, a refused id reported apart', async () => {
    const single = map.prepare(callOf('delete'), { ids: ['ann'] });
    if ('unsupported' in single) throw new Error(single.unsupported);
    expect([single.request, ...(single.also ?? []).map((s) => s.request)].map(sentOf)).toEqual([
      '/api/srg_delete console-friend-ann',
      '/api/srg_delete console-everyone-ann',
    ]);
    const several = map.prepare(callOf('delete'), { ids: ['ann', 'bob', 'carol'] });
    if ('unsupported' in several) throw new Error(several.unsupported);
    expect(several.also).toBeUndefined();
    const sent: string[] = [];
    const answer = await sendPlanned(several, async (step) => {
      sent.push(sentOf(step.request));
      // bob's first group is refused: his second is never asked for, carol's still are.
      const refused = sentOf(step.request).endsWith('console-friend-bob');
      return refused ? { status: 400, body: { code: 400, msg: 'no' } } : { status: 200, body: { code: 200 } };
    });
    expect(sent).toEqual([
      '/api/srg_delete console-friend-ann',
      '/api/srg_delete console-everyone-ann',
      '/api/srg_delete console-friend-bob',
      '/api/srg_delete console-friend-carol',
      '/api/srg_delete console-everyone-carol',
    ]);
    expect(answer.body).toMatchObject({ code: 400, data: { done: ['ann', 'carol'], refused: [{ id: 'bob' }] } });
  });

  it('refuses several calls for a list read or an action', () => {
    const base = { resources: { users: { calls: { list: { path: '/a', also: [{ path: '/b' }] } } } } };
    expect(() => parseBackendMap(JSON.stringify(base), 'm.json', {})).toThrow(/a create, a delete/);
  });
});
