import { describe, expect, it } from 'vitest';
import { RESOURCES, type Resource } from '../../server/contract/index.js';
import { BackendMap, type Prepared } from '../../server/backend-map/engine.js';
import { redirectAnswer } from '../../server/backend-map/answer.js';
import { consoleCalls } from '../../server/backend-map/calls.js';
import { parseBackendMap } from '../../server/backend-map/load.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { GatewayError } from '../../server/errors.js';

/**
 * The map's expressions for a REST dialect no one here wrote: snake_case keys, string ids, the
 * envelope {code: 0, message, result}, row and bulk paths of one action, POST-for-read bodies,
 * flat details with nested records and lists, enum values inside action answers, and refusal
 * codes of its own. Each expression both ways: the request out, the answer back.
 */

const byId = (id: string) => RESOURCES.find((r) => r.id === id)!;
const USERS = byId('users');
const GROUPS = byId('groups');
const WORDS = byId('sensitiveWords');
const WITHDRAWALS = byId('withdrawalReview');

const REST: BackendMapFile = {
  keyCase: 'snake',
  id: 'string',
  refusals: { '40000': 400, '40100': 401, '40300': 403 },
  answer: { code: '/code', message: '/message', data: '/result', success: [0] },
  resources: {
    users: {
      fields: {
        registerTime: { name: 'created_at', time: 'epoch-seconds' },
        status: { values: { normal: 1, banned: 2 } },
        balance: { money: 'yuan' },
      },
      calls: {
        list: {
          method: 'POST',
          path: '/user/search',
          template: {
            pagination: { pageNumber: '{pageNum}', showNumber: '{pageSize}' },
            keyword: '{keyword}',
            status: '{status}',
            note: 'by {keyword}',
          },
          answer: { list: '/result/users', total: '/result/total' },
        },
        detail: {
          path: '/user/{id}',
          answer: {
            record: '',
            recordAs: '/user',
            relations: {
              wallet: { fields: { balance: { money: 'yuan' }, frozen: { money: 'yuan' } } },
              recentLogins: {
                at: '/login_records',
                fields: { time: { name: 'login_at', time: 'epoch-seconds' }, ip: { name: 'login_ip' } },
              },
              groups: {
                at: '/joined_groups',
                fields: { id: { id: 'string' }, role: { values: { owner: 1, admin: 2, member: 3 } } },
              },
            },
          },
        },
      },
      actions: {
        ban: { path: '/user/{id}/ban', bulk: { path: '/user/batch/ban', params: { ids: 'id_list' } } },
      },
    },
    groups: {
      calls: {
        detail: {
          path: '/group/{id}',
          answer: {
            record: '/group_info',
            recordAs: '/group',
            relations: {
              members: {
                at: '/member_list',
                fields: { userId: { id: 'string' }, muted: { values: { true: 1, false: 0 } } },
              },
            },
            refusals: { '40400': 404 },
          },
        },
      },
    },
    sensitiveWords: {
      fields: { category: { values: { politics: 1, porn: 2, ad: 3, abuse: 4, other: 9 } } },
      actions: { test: { path: '/sensitive_word/test', answer: { relations: { hits: { recordFields: true } } } } },
    },
    withdrawalReview: { fields: { amount: { money: 'cent' } } },
  },
};

const map = new BackendMap(parseBackendMap(JSON.stringify(REST), 'rest-map.json'));
const callOf = (resource: Resource, kind: string, action?: string) =>
  consoleCalls(resource).find((c) => c.kind === kind && (action === undefined || c.action === action))!;
const ready = (p: Prepared) => {
  if ('unsupported' in p) throw new Error(`unsupported ${p.unsupported}`);
  return p;
};
const ok = (result: unknown) => ({ code: 0, message: 'success', result });
const bodyOf = (p: Exclude<Prepared, { unsupported: string }>) => JSON.parse(p.request.body!.text) as unknown;

describe('row and bulk variants of one action', () => {
  it('sends a row to its path and a selection to the bulk path with its own body, the ids as text', () => {
    const row = ready(map.prepare(callOf(USERS, 'action', 'ban'), { id: 10023, reason: 'spam' }));
    expect(row.request.path).toBe('/user/10023/ban');
    expect(bodyOf(row)).toEqual({ reason: 'spam' });
    const bulk = ready(map.prepare(callOf(USERS, 'action', 'ban'), { ids: [10023, 10024], reason: 'spam' }));
    expect(bulk.request).toMatchObject({ method: 'POST', path: '/user/batch/ban' });
    expect(bodyOf(bulk)).toEqual({ id_list: ['10023', '10024'], reason: 'spam' });
  });

  it('reads each variant answer back in the console envelope', () => {
    const bulk = ready(map.prepare(callOf(USERS, 'action', 'ban'), { ids: [1], reason: 'x' }));
    expect(map.answer(bulk, 200, {}, ok({ banned_count: 1 })).body).toEqual({
      code: 200,
      msg: 'success',
      data: { banned_count: 1 },
    });
    expect(map.answer(bulk, 200, {}, { code: 40000, message: 'reason too long' }).body).toEqual({
      code: 400,
      msg: 'reason too long',
    });
  });

  it('names a refused field renamed by params with the console’s name, not its key-cased form', () => {
    const bulk = ready(map.prepare(callOf(USERS, 'action', 'ban'), { ids: [1], reason: 'x' }));
    const refused = { code: 40000, message: 'too many', result: { field: 'id_list' } };
    expect(map.answer(bulk, 200, {}, refused).body).toEqual({ code: 400, msg: 'too many', data: { field: 'ids' } });
    // A field the params do not rename still reads through the key case.
    const other = { code: 40000, message: 'bad', result: { field: 'ban_reason' } };
    expect(map.answer(bulk, 200, {}, other).body).toMatchObject({ data: { field: 'banReason' } });
  });

  it('refuses a bulk call on an action the console never sends over a selection, naming the place', () => {
    const bad = { resources: { users: { actions: { resetPassword: { bulk: { path: '/x' } } } } } };
    expect(() => parseBackendMap(JSON.stringify(bad), 'm.json')).toThrow(
      'm.json at /resources/users/actions/resetPassword/bulk: users.resetPassword is never sent',
    );
  });
});

describe('request body templates', () => {
  it('fills a nested POST-for-read body, keeping a whole placeholder typed and dropping absent values', () => {
    const p = ready(map.prepare(callOf(USERS, 'list'), { pageNum: 2, pageSize: 20, keyword: 'ann', status: 'banned' }));
    expect(p.request).toMatchObject({ method: 'POST', path: '/user/search' });
    expect(bodyOf(p)).toEqual({
      pagination: { pageNumber: 2, showNumber: 20 },
      keyword: 'ann',
      status: 2,
      note: 'by ann',
    });
    // A GET's query is text: its page numbers are placed as numbers.
    const bare = ready(map.prepare(callOf(USERS, 'list'), { pageNum: '1', pageSize: '10', keyword: '007' }));
    expect(bodyOf(bare)).toEqual({ pagination: { pageNumber: 1, showNumber: 10 }, keyword: '007', note: 'by 007' });
  });

  it('reads the answer of a templated call back through the fields', () => {
    const p = ready(map.prepare(callOf(USERS, 'list'), { pageNum: 1, pageSize: 1 }));
    const answer = map.answer(
      p,
      200,
      {},
      ok({
        users: [
          {
            id: '10023',
            nickname: 'Ann',
            created_at: 1717200000,
            status: 2,
            balance: '12.30',
            last_login_ip: '1.2.3.4',
          },
        ],
        total: '1',
      }),
    );
    expect(answer.body).toEqual({
      code: 200,
      msg: 'success',
      data: {
        list: [
          {
            id: 10023,
            nickname: 'Ann',
            registerTime: '2024-06-01T00:00:00.000Z',
            status: 'banned',
            balance: 1230,
            lastLoginIp: '1.2.3.4',
          },
        ],
        total: 1,
      },
    });
  });

  it('refuses a template on a query or beside a body', () => {
    const bad = { resources: { users: { calls: { list: { in: 'query', template: { a: '{pageNum}' } } } } } };
    expect(() => parseBackendMap(JSON.stringify(bad), 'm.json')).toThrow(
      'm.json at /resources/users/calls/list/template: a template is a JSON body',
    );
  });
});

describe('one backend member as the id and a field of its own', () => {
  const codes = new BackendMap(
    parseBackendMap(
      JSON.stringify({
        resources: {
          inviteCodes: {
            fields: { id: { name: 'invitationCode', id: 'string' }, code: { name: 'invitationCode' } },
            calls: { delete: { template: { codes: '{ids}' } } },
          },
        },
      }),
      'codes-map.json',
    ),
  );
  const INVITES = byId('inviteCodes');

  it('reads the member into both console keys, and sends the ids back as the member', () => {
    const list = ready(codes.prepare(callOf(INVITES, 'list'), { pageNum: 1, pageSize: 10 }));
    const answer = codes.answer(
      list,
      200,
      {},
      { code: 200, msg: 'ok', data: { list: [{ invitationCode: 'K7Q2PX', createTime: 1 }], total: 1 } },
    );
    expect(answer.body.data).toEqual({ list: [{ id: 'K7Q2PX', code: 'K7Q2PX', createTime: 1 }], total: 1 });
    const remove = ready(codes.prepare(callOf(INVITES, 'delete'), { ids: ['K7Q2PX'] }));
    expect(bodyOf(remove)).toEqual({ codes: ['K7Q2PX'] });
  });
});

describe('answers of Go backends', () => {
  const go = new BackendMap(
    parseBackendMap(
      JSON.stringify({
        answer: { code: '/errCode', message: '/errMsg', data: '/data', success: [0] },
        resources: {
          users: {
            calls: {
              list: {
                method: 'POST',
                path: '/user/search',
                template: {},
                answer: { list: '/data/users', total: '/data/total' },
              },
            },
          },
          siteFunctions: {
            calls: {
              config: {
                method: 'POST',
                path: '/client_config/get',
                template: {},
                answer: { record: '/config', recordAs: '' },
              },
            },
          },
        },
      }),
      'go-map.json',
    ),
  );

  it('reads a null list (an empty page) as no rows', () => {
    const p = ready(go.prepare(callOf(USERS, 'list'), { pageNum: 9, pageSize: 10 }));
    expect(go.answer(p, 200, {}, { errCode: 0, errMsg: '', data: { total: 3, users: null } }).body.data).toEqual({
      list: [],
      total: 3,
    });
  });

  it('lifts a settings object nested in data to the top with an empty recordAs', () => {
    const p = ready(go.prepare(callOf(byId('siteFunctions'), 'config'), {}));
    const answer = go.answer(p, 200, {}, { errCode: 0, errMsg: '', data: { config: { chatRoomName: 'Nimbus' } } });
    expect(answer.body.data).toEqual({ chatRoomName: 'Nimbus' });
  });
});

describe('relations and flat details', () => {
  it('asks for a detail by its text id and shapes a flat record with its nested records and lists', () => {
    const p = ready(map.prepare(callOf(USERS, 'detail'), { id: 10023 }));
    expect(p.request).toEqual({ method: 'GET', path: '/user/10023' });
    const flat = {
      id: '10023',
      nickname: 'Ann',
      status: 1,
      balance: '5.00',
      wallet: { balance: '5.00', frozen: '0.50', total_recharge: 100 },
      login_records: [{ login_at: 1717200000, login_ip: '1.2.3.4', device: 'iPhone' }],
      joined_groups: [{ id: '77', name: 'Fans', role: 1, join_time: '2024-06-01' }],
    };
    const data = map.answer(p, 200, {}, ok(flat)).body.data;
    expect(data).toEqual({
      user: { id: 10023, nickname: 'Ann', status: 'normal', balance: 500 },
      wallet: { balance: 500, frozen: 50, totalRecharge: 100 },
      recentLogins: [{ time: '2024-06-01T00:00:00.000Z', ip: '1.2.3.4', device: 'iPhone' }],
      groups: [{ id: 77, name: 'Fans', role: 'owner', joinTime: '2024-06-01' }],
    });
    // The parsed answer is not changed under the mapping.
    expect(flat.wallet.balance).toBe('5.00');
  });

  it('moves a nested record to the console key and maps a list of members; a group refusal code of its own', () => {
    const p = ready(map.prepare(callOf(GROUPS, 'detail'), { id: 5 }));
    expect(p.request.path).toBe('/group/5');
    const answer = ok({
      group_info: { id: '5', member_count: 2, muted: false },
      member_list: [{ user_id: '10023', account: 'ann', muted: 1 }],
    });
    expect(map.answer(p, 200, {}, answer).body.data).toEqual({
      group: { id: 5, memberCount: 2, muted: false },
      members: [{ userId: 10023, account: 'ann', muted: true }],
    });
    expect(map.answer(p, 200, {}, { code: 40400, message: 'no such group' }).body).toEqual({
      code: 404,
      msg: 'no such group',
    });
    expect(map.answer(p, 200, {}, { code: 40300, message: 'denied' }).body).toEqual({ code: 403, msg: 'denied' });
  });

  it('refuses relations on a list call', () => {
    const bad = { resources: { users: { calls: { list: { answer: { relations: { x: {} } } } } } } };
    expect(() => parseBackendMap(JSON.stringify(bad), 'm.json')).toThrow(
      'm.json at /resources/users/calls/list/answer: a list answer has rows',
    );
  });
});

describe('action and preview answers through the fields', () => {
  it('sends the test input and reads its hits back through the value table of the fields', () => {
    const p = ready(map.prepare(callOf(WORDS, 'action', 'test'), { text: 'buy now' }));
    expect(p.request.path).toBe('/sensitive_word/test');
    expect(bodyOf(p)).toEqual({ text: 'buy now' });
    const answer = ok({ hits: [{ word: 'buy', category: 3, index: 0 }], hit_count: 1 });
    expect(map.answer(p, 200, {}, answer).body.data).toEqual({
      hits: [{ word: 'buy', category: 'ad', index: 0 }],
      hitCount: 1,
    });
  });
});

describe('refusal codes', () => {
  it('turns the backend codes of the table into the console codes; others keep their number', () => {
    const p = ready(map.prepare(callOf(USERS, 'detail'), { id: 1 }));
    expect(map.answer(p, 200, {}, { code: 40100, message: 'login expired' }).body).toEqual({
      code: 401,
      msg: 'login expired',
    });
    expect(map.answer(p, 200, {}, { code: '40000', message: 'bad', result: { field: 'last_login_ip' } }).body).toEqual({
      code: 400,
      msg: 'bad',
      data: { field: 'lastLoginIp' },
    });
    expect(map.answer(p, 200, {}, { code: 50001, message: 'oops' }).body).toEqual({ code: 50001, msg: 'oops' });
  });
});

describe('key case', () => {
  it('writes every key the contract defines in the backend case, an explicit name and rename winning', () => {
    const save = ready(
      map.prepare(callOf(USERS, 'save'), {
        id: 3,
        nickname: 'Ann',
        lastLoginIp: '1.1.1.1',
        extraInfo: { shoeSize: 9 },
      }),
    );
    // A member the contract does not define is not sent (issue 36 point 9): it could be one the map writes itself.
    expect(bodyOf(save)).toEqual({ id: '3', nickname: 'Ann', last_login_ip: '1.1.1.1' });
    const list = ready(map.prepare(callOf(WITHDRAWALS, 'list'), { pageNum: 1, pageSize: 10, sort: '-applyTime' }));
    expect(Object.fromEntries(new URL(list.request.path, 'http://b').searchParams)).toEqual({
      page_num: '1',
      page_size: '10',
      sort: '-apply_time',
    });
  });

  it('reads every backend key back in the console case', () => {
    const list = ready(map.prepare(callOf(WITHDRAWALS, 'list'), {}));
    const json = {
      code: 0,
      result: { list: [{ user_account: 'ann', amount: 1230, pay_info: { bank_name: 'X' } }], total: 1 },
    };
    expect(map.answer(list, 200, {}, json).body.data).toEqual({
      list: [{ userAccount: 'ann', amount: 1230, payInfo: { bankName: 'X' } }],
      total: 1,
    });
  });

  it('converts camel, kebab and pascal keys', () => {
    for (const [rule, name] of [
      ['kebab', 'last-login-ip'],
      ['pascal', 'LastLoginIp'],
      ['camel', 'lastLoginIp'],
    ] as const) {
      const m = new BackendMap({ keyCase: rule, resources: { users: {} } });
      const save = ready(m.prepare(callOf(USERS, 'save'), { id: 1, lastLoginIp: 'a' }));
      expect(Object.keys(bodyOf(save) as object)).toContain(name);
      const detail = ready(m.prepare(callOf(USERS, 'detail'), { id: 1 }));
      expect(m.answer(detail, 200, {}, { code: 200, data: { [name]: 'a' } }).body.data).toEqual({ lastLoginIp: 'a' });
    }
  });
});

describe('string ids', () => {
  it('sends ids as text and reads text ids back as numbers; a text id too long for a number stays text', () => {
    const del = ready(map.prepare(callOf(USERS, 'delete'), { ids: [1, 2] }));
    expect(bodyOf(del)).toEqual({ ids: ['1', '2'] });
    const list = ready(map.prepare(callOf(USERS, 'list'), {}));
    const json = ok({ users: [{ id: '10023' }, { id: '123456789012345678' }], total: 2 });
    expect((map.answer(list, 200, {}, json).body.data as { list: unknown[] }).list).toEqual([
      { id: 10023 },
      { id: '123456789012345678' },
    ]);
  });
});

describe('money: a fraction of the smallest unit', () => {
  const detail = ready(map.prepare(callOf(USERS, 'detail'), { id: 1 }));
  const list = ready(map.prepare(callOf(WITHDRAWALS, 'list'), {}));

  it('is a bad answer, never a rounded amount', () => {
    expect(() => map.answer(detail, 200, {}, ok({ balance: '12.345' }))).toThrow(GatewayError);
    expect(() => map.answer(detail, 200, {}, ok({ balance: 12.345 }))).toThrow(
      /balance is 12.345, a fraction of the smallest unit \(yuan\)/,
    );
    expect(() => map.answer(list, 200, {}, { code: 0, result: { list: [{ amount: 12.5 }], total: 1 } })).toThrow(
      expect.objectContaining({ errorName: 'UPSTREAM_BAD_ANSWER' }),
    );
    // Two decimals, trailing zeros and binary noise are whole fen.
    expect(map.answer(detail, 200, {}, ok({ balance: 19.99 })).body.data).toEqual({ user: { balance: 1999 } });
    expect(map.answer(detail, 200, {}, ok({ balance: '0.100' })).body.data).toEqual({ user: { balance: 10 } });
  });

  it('is refused on the way out too', () => {
    expect(() => map.prepare(callOf(USERS, 'save'), { id: 1, balance: 12.5 })).toThrow(
      expect.objectContaining({ errorName: 'BAD_REQUEST', data: { field: 'balance' } }),
    );
    expect(bodyOf(ready(map.prepare(callOf(USERS, 'save'), { id: 1, balance: 1999 })))).toMatchObject({
      balance: 19.99,
    });
  });
});

describe('zero-based pages and writes answered with a redirect', () => {
  // Shiku's sensitive words page from 0 and its keyword add answers 302 to the list page.
  const zero = new BackendMap(
    parseBackendMap(
      JSON.stringify({
        resources: {
          sensitiveWords: {
            calls: {
              list: { path: '/console/keywordfilter', firstPage: 0, params: { pageNum: 'pageIndex' } },
              create: { path: '/console/addkeyword', in: 'form', answer: { redirect: 'success' } },
            },
          },
        },
      }),
      'zero-map.json',
    ),
  );

  it('sends the console’s page 1 as page 0, and page 3 as 2, whether the query held text or a number', () => {
    expect(ready(zero.prepare(callOf(WORDS, 'list'), { pageNum: '1', pageSize: '10' })).request.path).toBe(
      '/console/keywordfilter?pageIndex=0&pageSize=10',
    );
    expect(ready(zero.prepare(callOf(WORDS, 'list'), { pageNum: 3, pageSize: 10 })).request.path).toBe(
      '/console/keywordfilter?pageIndex=2&pageSize=10',
    );
    // Without firstPage the page number goes out as the console's.
    expect(ready(map.prepare(callOf(WORDS, 'list'), { pageNum: '1', pageSize: '10' })).request.path).toContain(
      'page_num=1',
    );
  });

  it('reads a redirect as success only where the map says so', () => {
    const create = ready(zero.prepare(callOf(WORDS, 'save'), { word: 'spam' }));
    expect(redirectAnswer(create, 302)).toEqual({ status: 200, body: { code: 200, msg: 'ok' } });
    expect(redirectAnswer(create, 200)).toBeNull();
    const list = ready(zero.prepare(callOf(WORDS, 'list'), { pageNum: '1', pageSize: '10' }));
    expect(redirectAnswer(list, 302)).toBeNull();
  });
});

describe('backend fields outside the contract (shown)', () => {
  const shownMap = new BackendMap(
    parseBackendMap(
      JSON.stringify({
        keyCase: 'snake',
        resources: {
          users: {
            fields: {
              online: { name: 'is_online', shown: 'switch', values: { true: 1, false: 0 } },
              banTime: { shown: 'datetime', time: 'epoch-seconds' },
            },
          },
        },
      }),
      'shown-map.json',
    ),
  );

  it('reads them in their kind beside the contract’s fields, and lists them in the offer', () => {
    const list = ready(shownMap.prepare(callOf(USERS, 'list'), {}));
    const answer = { code: 200, msg: 'ok', data: { list: [{ id: 1, is_online: 1, ban_time: 1717200000 }], total: 1 } };
    expect((shownMap.answer(list, 200, {}, answer).body.data as { list: unknown[] }).list).toEqual([
      { id: 1, online: true, banTime: '2024-06-01T00:00:00.000Z' },
    ]);
    expect(shownMap.offer().shown).toEqual({
      users: [
        { key: 'online', kind: 'switch' },
        { key: 'banTime', kind: 'datetime' },
      ],
    });
  });

  it('never sends them back: a save carries the contract’s members only', () => {
    const save = ready(shownMap.prepare(callOf(USERS, 'save'), { id: 1, nickname: 'Ann', online: true, banTime: 'x' }));
    expect(bodyOf(save)).toEqual({ id: 1, nickname: 'Ann' });
  });

  it('is refused without "shown", and on a field the console has, naming the place', () => {
    const without = { resources: { users: { fields: { online: { name: 'is_online' } } } } };
    expect(() => parseBackendMap(JSON.stringify(without), 'm.json')).toThrow(
      /m\.json at \/resources\/users\/fields\/online: users has no field "online".*needs "shown"/,
    );
    const own = { resources: { users: { fields: { nickname: { shown: 'text' } } } } };
    expect(() => parseBackendMap(JSON.stringify(own), 'm.json')).toThrow(
      'm.json at /resources/users/fields/nickname/shown: "nickname" is a field of the console\'s users',
    );
  });
});
