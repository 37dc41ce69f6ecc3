import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildUrl, classifyEnvelope, mentionsPermission, request, setApiHooks } from '../../web/api/client.js';
import { accountInitial, parsePermissionList, PermissionError } from '../../web/api/session.js';
import { endedReason, parseCount, shouldChime } from '../../web/api/withdrawals.js';
import { pageTitle } from '../../web/app/title.js';
import { initI18n } from '../../web/i18n/index.js';
import { startFakeBackend } from '../support/fake-backend.js';

initI18n();

describe('envelope handling', () => {
  it('resolves 200', () => {
    expect(classifyEnvelope({ code: 200, msg: '' })).toEqual({ kind: 'ok' });
  });
  it('lets 600 and 601 and a permission 401 through silently', () => {
    expect(classifyEnvelope({ code: 600, msg: 'x' }).kind).toBe('silent');
    expect(classifyEnvelope({ code: 601, msg: 'x' }).kind).toBe('silent');
    expect(classifyEnvelope({ code: 401, msg: 'No Permission for this call' }).kind).toBe('silent');
    expect(classifyEnvelope({ code: 401, msg: '没有权限' }).kind).toBe('silent');
  });
  it("sends the gateway's NOT_LOGGED_IN to the login form, not to the 'logged in elsewhere' dialog", () => {
    expect(classifyEnvelope({ code: 401, msg: 'Not logged in', error: 'NOT_LOGGED_IN' } as never).kind).toBe(
      'session-lost',
    );
    // A backend 401 that happens to carry another error name is still the backend's.
    expect(classifyEnvelope({ code: 401, msg: 'token expired', error: 'SOMETHING' } as never).kind).toBe(
      'logged-elsewhere',
    );
  });
  it('treats any other 401 as logged in elsewhere', () => {
    expect(classifyEnvelope({ code: 401, msg: 'token expired' }).kind).toBe('logged-elsewhere');
    expect(classifyEnvelope({ code: 401, msg: '' }).kind).toBe('logged-elsewhere');
  });
  it('toasts the server message for other codes', () => {
    expect(classifyEnvelope({ code: 500, msg: 'boom' })).toEqual({ kind: 'toast', text: 'boom' });
  });
  it('detects the permission word', () => {
    expect(mentionsPermission('PERMISSION denied')).toBe(true);
    expect(mentionsPermission('无权限')).toBe(true);
    expect(mentionsPermission('expired')).toBe(false);
    expect(mentionsPermission(undefined)).toBe(false);
  });
  it('builds query strings without empty values', () => {
    expect(buildUrl('/a', { pageNum: 1, keyword: '', x: null, y: 'a b' })).toBe('/a?pageNum=1&y=a+b');
    expect(buildUrl('/a')).toBe('/a');
  });
});

describe('permission list', () => {
  it('reads the permission field of each entry', () => {
    expect(parsePermissionList([{ permission: '/manage/push' }, { permission: '/manage/page' }])).toEqual([
      '/manage/push',
      '/manage/page',
    ]);
  });
  it('tells a missing list from an empty one', () => {
    expect(() => parsePermissionList(null)).toThrow(PermissionError);
    expect(() => parsePermissionList(undefined)).toThrow('Cannot get user permissions, please log in again');
    expect(() => parsePermissionList({})).toThrow(PermissionError);
    expect(() => parsePermissionList([])).toThrow('roles must be a non-null array');
    const keyOf = (data: unknown) => {
      try {
        parsePermissionList(data);
        return null;
      } catch (e) {
        return (e as PermissionError).key;
      }
    };
    expect(keyOf([])).toBe('api.rolesEmpty');
    expect(keyOf(undefined)).toBe('api.noPermissionList');
  });
});

describe('withdrawal events', () => {
  it('parses counts and ignores junk', () => {
    expect(parseCount('{"count":3}')).toBe(3);
    expect(parseCount('{"count":-1}')).toBeNull();
    expect(parseCount('nope')).toBeNull();
    expect(parseCount(undefined)).toBeNull();
  });
  it('chimes only on a rise after the first value', () => {
    expect(shouldChime(null, 5)).toBe(false);
    expect(shouldChime(5, 5)).toBe(false);
    expect(shouldChime(5, 4)).toBe(false);
    expect(shouldChime(4, 5)).toBe(true);
  });
});

describe('page title', () => {
  it('is the route title, a dash, then the site title', () => {
    expect(pageTitle('Home', '后台')).toBe('Home - 后台');
    expect(pageTitle(null, 'Nimbus后台')).toBe('Nimbus后台');
  });
});

describe('the end of an event stream', () => {
  it('tells a gateway-ended session from one the backend dropped', () => {
    expect(endedReason('{"reason":"logged-out"}')).toBe('logged-out');
    expect(endedReason('{"reason":"expired"}')).toBe('expired');
    expect(endedReason('{"reason":"backend"}')).toBe('backend');
    // The notice of an older gateway carried no reason: the backend's, as before.
    expect(endedReason('{}')).toBe('backend');
    expect(endedReason('not json')).toBe('backend');
    expect(endedReason(undefined)).toBe('backend');
  });
});

describe('the avatar initial', () => {
  it('is the first character of the account, upper-cased, whole for CJK and emoji', () => {
    expect(accountInitial('operator')).toBe('O');
    expect(accountInitial('  sakura2825')).toBe('S');
    expect(accountInitial('管理员')).toBe('管');
    expect(accountInitial('😀admin')).toBe('😀');
    expect(accountInitial('')).toBe('A');
  });
});

describe('a call cancelled while its answer arrives', () => {
  const backend = startFakeBackend();
  afterAll(async () => (await backend).close());

  it('raises no toast when the body is cut off by the caller, and one when the connection is', async () => {
    const server = await backend;
    // Headers and half an envelope, then the rest never comes until the test ends the response.
    let finish: (() => void) | undefined;
    server.route('GET /half', (_call, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"code":200,"msg":"","data":{"list":[');
      finish = () => res.destroy();
    });
    const toasts: string[] = [];
    setApiHooks({ notifyError: (text) => toasts.push(text), loggedInElsewhere: () => {}, sessionEnded: () => {} });
    // The real fetch, watched: the cancel must come after the headers arrived, inside the body.
    const realFetch = globalThis.fetch;
    let headersIn!: () => void;
    const answered = new Promise<void>((resolve) => (headersIn = resolve));
    const watch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (...args) => {
      const response = await realFetch(...args);
      headersIn();
      return response;
    });
    try {
      const controller = new AbortController();
      const call = request('GET', `${server.url}/half`, { signal: controller.signal });
      await answered;
      controller.abort();
      await expect(call).rejects.toThrow(/abort/i);
      expect(toasts).toEqual([]);

      // The same cut made by the network, not the caller, is connection trouble and says so.
      finish = undefined;
      const broken = request('GET', `${server.url}/half`);
      await expect.poll(() => finish !== undefined).toBe(true);
      finish!();
      await expect(broken).rejects.toThrow('HTTP 200');
      expect(toasts).toEqual(['Server connection abnormal']);
    } finally {
      watch.mockRestore();
    }
  });
});
