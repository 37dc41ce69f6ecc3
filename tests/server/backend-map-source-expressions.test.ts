import { describe, expect, it } from 'vitest';
import { RESOURCES, type Resource } from '../../server/contract/index.js';
import { BackendAuth } from '../../server/backend-map/auth.js';
import { BackendMap, type Prepared } from '../../server/backend-map/engine.js';
import { consoleCalls } from '../../server/backend-map/calls.js';
import { exchange } from '../../server/backend-map/exchange.js';
import { parseBackendMap } from '../../server/backend-map/load.js';
import { valueCodec } from '../../server/backend-map/values.js';
import type { AuthMap, BackendMapFile } from '../../server/backend-map/types.js';

/**
 * The expressions issue 39 §1 added to bind Shiku as its source behaves, each on its own: a login
 * field's stand-in when the form left it empty (`whenEmpty`), a refusal that means "bind an
 * authenticator first" (`authenticatorNeeded`), text after a prefix (`after`), backend values read
 * one way (`reads`), a merged record's members sent under the names the backend binds (`mergeAs`),
 * a list filtered, paged and counted at the gateway (`keep`), and a field looked up (`lookup`).
 */

const byId = (id: string) => RESOURCES.find((r) => r.id === id)!;
const callOf = (resource: Resource, kind: string) => consoleCalls(resource).find((c) => c.kind === kind)!;
const ready = (p: Prepared) => {
  if ('unsupported' in p) throw new Error(`unsupported ${p.unsupported}`);
  return p;
};
const compile = (map: BackendMapFile) => new BackendMap(parseBackendMap(JSON.stringify(map), 'm.json'));

const LOGIN: AuthMap = {
  login: {
    path: '/console/login',
    in: 'form',
    fields: { code: 'googlecode' },
    whenEmpty: { code: 0 },
    answer: {
      token: '/data/token',
      userId: '/data/id',
      code: '/resultCode',
      message: '/resultMsg',
      success: [1],
      authenticatorNeeded: ['请绑定谷歌验证后使用'],
    },
  },
};

describe('auth.login.whenEmpty and authenticatorNeeded', () => {
  it('sends the stand-in for an empty field only, and the typed value otherwise', () => {
    const auth = new BackendAuth(LOGIN);
    expect(auth.loginRequest({ account: 'a', password: 'p', code: '' }).body!.text).toBe(
      'account=a&password=p&googlecode=0',
    );
    expect(auth.loginRequest({ account: 'a', password: 'p', code: '123456' }).body!.text).toBe(
      'account=a&password=p&googlecode=123456',
    );
    // Without the member, the empty code goes as it came.
    const { whenEmpty: _dropped, ...plain } = LOGIN.login;
    expect(new BackendAuth({ login: plain }).loginRequest({ account: 'a', password: 'p', code: '' }).body!.text).toBe(
      'account=a&password=p&googlecode=',
    );
  });

  it('marks only the named refusal as an authenticator to bind', () => {
    const auth = new BackendAuth(LOGIN);
    expect(auth.readLogin({ resultCode: 0, resultMsg: '请绑定谷歌验证后使用' })).toMatchObject({
      ok: false,
      authenticatorNeeded: true,
    });
    const other = auth.readLogin({ resultCode: 0, resultMsg: '谷歌验证失败' });
    expect(other).toMatchObject({ ok: false, msg: '谷歌验证失败' });
    expect(other).not.toHaveProperty('authenticatorNeeded');
  });
});

describe('field after and reads', () => {
  it('reads the text after a prefix, null without it, and sends values unchanged', () => {
    const codec = valueCodec('reason', 'text', { after: '审核拒绝:' }, 0)!;
    expect(codec.fromBackend('审核拒绝:收款人不符')).toBe('收款人不符');
    expect(codec.fromBackend('提现待审核')).toBeNull();
    expect(codec.fromBackend(undefined)).toBeNull();
    expect(codec.toBackend('收款人不符')).toBe('收款人不符');
  });

  it('reads more backend values as a console value, and sends only what values says', () => {
    const codec = valueCodec('status', 'select', { values: { normal: 1 }, reads: { '-1': 'normal' } }, 0)!;
    expect(codec.fromBackend(1)).toBe('normal');
    expect(codec.fromBackend(-1)).toBe('normal');
    expect(codec.fromBackend('-1')).toBe('normal');
    expect(codec.fromBackend(7)).toBe(7);
    expect(codec.toBackend('normal')).toBe(1);
  });
});

describe('call mergeAs', () => {
  it('sends a merged record’s members under the names the backend binds', async () => {
    const map = compile({
      answer: { code: '/code', data: '/data', success: [1] },
      resources: {
        siteFunctions: {
          calls: {
            config: { path: '/config' },
            saveConfig: { method: 'POST', path: '/config/set', in: 'form', merge: 'config', mergeAs: { xT: 'XT' } },
          },
        },
      },
    });
    const p = ready(map.prepare(callOf(byId('siteFunctions'), 'saveConfig'), { maxGroupMembers: 9 }));
    const sent: string[] = [];
    await exchange(p, {
      send: async (request) => {
        sent.push(`${request.path} ${request.body?.text ?? ''}`);
        return { status: 200, headers: {}, body: Buffer.from('') };
      },
      read: async (_answer, request) =>
        request.path === '/config' ? { code: 1, data: { xT: 60, other: 'kept' } } : { code: 1 },
    });
    expect(sent).toEqual(['/config ', '/config/set maxGroupMembers=9&XT=60&other=kept']);
  });
});

describe('call keep and lookup', () => {
  const packets = [
    { id: 'a', roomJid: 'j1', money: 1 },
    { id: 'b', money: 2 },
    { id: 'c', roomJid: '', money: 3 },
    { id: 'd', roomJid: 'j2', money: 4 },
    { id: 'e', roomJid: 'gone', money: 5 },
  ];
  const list = (keep: Record<string, unknown>, lookup?: Record<string, unknown>): BackendMapFile => ({
    answer: { code: '/code', data: '/data', success: [1] },
    resources: {
      groupRedEnvelopes: {
        id: 'string',
        fields: { groupName: { name: 'roomJid' } },
        calls: {
          list: {
            path: '/packets',
            params: { pageNum: 'page', pageSize: 'limit' },
            keep: keep as never,
            ...(lookup ? { lookup: lookup as never } : {}),
            answer: { list: '/data', total: '/count' },
          },
        },
      },
    },
  });
  const run = async (map: BackendMapFile, query: Record<string, unknown>) => {
    const sent: string[] = [];
    const answer = await exchange(ready(compile(map).prepare(callOf(byId('groupRedEnvelopes'), 'list'), query)), {
      send: async (request) => {
        sent.push(request.path);
        return { status: 200, headers: {}, body: Buffer.from('') };
      },
      read: async (_answer, request) =>
        request.path.startsWith('/rooms')
          ? {
              code: 1,
              data: [
                { jid: 'j1', name: 'Room one' },
                { jid: 'j2', name: 'Room two' },
              ],
            }
          : { code: 1, data: packets, count: packets.length },
    });
    return { sent, data: answer.body.data as { list: Record<string, unknown>[]; total: number } };
  };

  it('asks for every row, keeps those with the member present, and pages and counts them itself', async () => {
    const { sent, data } = await run(list({ present: 'roomJid', all: { page: 1, limit: 0 } }), {
      pageNum: 2,
      pageSize: 2,
    });
    expect(sent).toEqual(['/packets?page=1&limit=0']);
    expect(data).toEqual({ list: [{ id: 'e', groupName: 'gone', money: 5 }], total: 3 });
  });

  it('keeps the rows without the member (null, missing or empty)', async () => {
    const { data } = await run(list({ absent: 'roomJid', all: { page: 1, limit: 0 } }), { pageNum: 1, pageSize: 10 });
    expect(data.list.map((r) => r.id)).toEqual(['b', 'c']);
    expect(data.total).toBe(2);
  });

  it('looks a field up with one more call: its key becomes the record’s member, null when none has it', async () => {
    const { sent, data } = await run(
      list(
        { present: 'roomJid', all: { page: 1, limit: 0 } },
        { field: 'groupName', path: '/rooms', extra: { limit: 0 }, list: '/data', match: 'jid', take: 'name' },
      ),
      { pageNum: 1, pageSize: 10 },
    );
    expect(sent).toEqual(['/packets?page=1&limit=0', '/rooms?limit=0']);
    expect(data.list.map((r) => r.groupName)).toEqual(['Room one', 'Room two', null]);
  });
});
