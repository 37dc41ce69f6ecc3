import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { BackendMap, type Prepared } from '../../server/backend-map/engine.js';
import { BackendMapError, parseBackendMap } from '../../server/backend-map/load.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { RESOURCES } from '../../server/contract/index.js';

/**
 * The map's `console` section alone, both ways: the console's own calls (site configuration, the
 * dashboard's figures, deployment, the withdrawal count, the logout) out in a backend's dialect
 * (snake_case, money in yuan, {resultCode: 1, resultMsg, data}) and its answers back as the contract's.
 */

const MAP: BackendMapFile = {
  timeZone: '+08:00',
  answer: { code: '/resultCode', message: '/resultMsg', success: [1] },
  console: {
    keyCase: 'snake',
    refusals: { '1030102': 401 },
    calls: {
      siteConfig: { path: '/config', fields: { chatRoomName: { name: 'app_name' }, webIconPath: { name: 'icon' } } },
      count: {
        path: '/console/countNum',
        fields: { userCount: { name: 'userNum' }, rechargeToday: { money: 'yuan' } },
      },
      dailyStatistics: {
        path: '/console/report',
        params: { startDate: 'begin', endDate: 'end' },
        dates: { format: 'epoch-seconds' },
        answer: {
          relations: { list: { at: '/rows', fields: { date: { name: 'day' }, rechargeAmount: { money: 'yuan' } } } },
        },
      },
      financeData: { unsupported: true },
      runnerSetMoment: {
        path: '/console/switch/moment',
        in: 'form',
        fields: { enabled: { name: 'on', values: { true: 1, false: 0 } } },
      },
      runnerSaveConfig: {
        method: 'PUT',
        path: '/console/runner',
        template: { settings: { api: '{api_url}', workers: '{worker_count}' } },
      },
      monitoring: { unsupported: true },
      withdrawalCount: {
        method: 'POST',
        path: '/console/systemRecharge',
        in: 'form',
        extra: { type: 2, page: 1, limit: 1 },
        answer: { data: '/count' },
      },
      logout: { path: '/console/logout' },
    },
  },
};

const map = new BackendMap(MAP, RESOURCES, {
  withdrawalCount: '/manage/finance/cashWithdrawalCheck/count',
  logout: null,
});
const ready = (p: Prepared) => {
  if ('unsupported' in p) throw new Error(`unsupported ${p.unsupported}`);
  return p;
};
const answer = (p: Prepared, json: unknown, status = 200) => map.answer(ready(p), status, {}, json);

describe('backend map console section: requests', () => {
  it('sends a figure to its own path, and a date range renamed in the backend format and zone', () => {
    expect(ready(map.prepareOwn('count', 'GET', {})).request).toEqual({ method: 'GET', path: '/console/countNum' });
    const daily = ready(map.prepareOwn('dailyStatistics', 'GET', { startDate: '2024-06-01', endDate: '2024-06-07' }));
    // 2024-06-01 00:00:00 and 2024-06-07 23:59:59 Beijing time.
    expect(daily.request.path).toBe('/console/report?begin=1717171200&end=1717775999');
  });

  it('sends a switch as a form with its value table, and a saved config through a template in snake_case', () => {
    const on = ready(map.prepareOwn('runnerSetMoment', 'POST', { enabled: true }));
    expect(on.request).toEqual({
      method: 'POST',
      path: '/console/switch/moment',
      body: { contentType: 'application/x-www-form-urlencoded', text: 'on=1' },
    });
    const saved = ready(map.prepareOwn('runnerSaveConfig', 'POST', { apiUrl: 'https://api.example', workerCount: 4 }));
    expect(saved.request.method).toBe('PUT');
    expect(JSON.parse(saved.request.body!.text)).toEqual({ settings: { api: 'https://api.example', workers: 4 } });
  });

  it('polls the withdrawal count with the map method, path and fixed parameters', () => {
    expect(ready(map.prepareOwn('withdrawalCount', 'GET', {})).request).toEqual({
      method: 'POST',
      path: '/console/systemRecharge',
      body: { contentType: 'application/x-www-form-urlencoded', text: 'type=2&page=1&limit=1' },
    });
  });

  it('starts the count and the logout from the configured paths when the map gives none', () => {
    const paths = { withdrawalCount: '/custom/count', logout: '/custom/logout' };
    const own = new BackendMap({ console: { calls: { withdrawalCount: {}, logout: {} } } }, RESOURCES, paths);
    expect(ready(own.prepareOwn('withdrawalCount', 'GET', {})).request).toEqual({
      method: 'GET',
      path: '/custom/count',
    });
    expect(ready(own.prepareOwn('logout', 'POST', {})).request).toEqual({
      method: 'POST',
      path: '/custom/logout',
      body: { contentType: 'application/json', text: '{}' },
    });
  });

  it('refuses an unsupported call without a request, and tells the UI which own calls are missing', () => {
    expect(map.prepareOwn('financeData', 'GET', {})).toEqual({ unsupported: 'console.financeData' });
    expect(map.offer().unsupported.console).toEqual(['financeData', 'monitoring']);
    expect(map.namesOwn('runner')).toBe(false);
    // The browser's own calls the map names get routes; the gateway's two (count, logout) do not.
    expect(map.ownRoutes().map((r) => r.name)).toEqual([
      'siteConfig',
      'count',
      'dailyStatistics',
      'financeData',
      'runnerSetMoment',
      'runnerSaveConfig',
      'monitoring',
    ]);
  });
});

describe('backend map console section: answers', () => {
  it('reads the site configuration and a figure through their fields (renames, key case, yuan)', () => {
    const site = answer(map.prepareOwn('siteConfig', 'GET', {}), {
      resultCode: 1,
      data: { app_name: 'Chat', icon: '/i.png', logo_icon_path: '/l.png' },
    });
    expect(site).toEqual({
      status: 200,
      body: { code: 200, msg: 'ok', data: { chatRoomName: 'Chat', webIconPath: '/i.png', logoIconPath: '/l.png' } },
    });
    const count = answer(map.prepareOwn('count', 'GET', {}), {
      resultCode: 1,
      resultMsg: 'fine',
      data: { userNum: 7, recharge_today: '12.30', group_count: 2 },
    });
    expect(count.body).toEqual({ code: 200, msg: 'fine', data: { userCount: 7, rechargeToday: 1230, groupCount: 2 } });
  });

  it('reads a list inside a figure as a relation with its own fields', () => {
    const daily = answer(map.prepareOwn('dailyStatistics', 'GET', {}), {
      resultCode: 1,
      data: {
        start_date: '2024-06-01',
        end_date: '2024-06-01',
        rows: [{ day: '2024-06-01', recharge_amount: '1.50', new_groups: 1 }],
      },
    });
    expect(daily.body.data).toEqual({
      startDate: '2024-06-01',
      endDate: '2024-06-01',
      list: [{ date: '2024-06-01', rechargeAmount: 150, newGroups: 1 }],
    });
  });

  it('reads the withdrawal count where the map points, and a refusal with the section codes', () => {
    const poll = map.prepareOwn('withdrawalCount', 'GET', {});
    expect(answer(poll, { resultCode: 1, data: [{ id: 1 }], count: 4 }).body).toEqual({
      code: 200,
      msg: 'ok',
      data: 4,
    });
    expect(answer(poll, { resultCode: 1030102, resultMsg: 'token expired' }).body).toEqual({
      code: 401,
      msg: 'token expired',
    });
  });

  it('refuses money with a fraction of a fen in a figure as a bad answer', () => {
    expect(() =>
      answer(map.prepareOwn('count', 'GET', {}), { resultCode: 1, data: { recharge_today: '1.234' } }),
    ).toThrow(/rechargeToday/);
  });
});

describe('backend map console section: checks', () => {
  const problem = (value: unknown) => {
    try {
      parseBackendMap(JSON.stringify(value), 'map.json');
    } catch (error) {
      expect(error).toBeInstanceOf(BackendMapError);
      return (error as Error).message;
    }
    throw new Error('the map was accepted');
  };

  it('names an unknown own call, the sync bound elsewhere, and members that clash', () => {
    expect(problem({ console: { calls: { permissionList: {} } } })).toBe(
      'map.json at /console/calls: unknown member "permissionList"',
    );
    expect(problem({ console: { calls: { syncCashWithdrawal: {} } } })).toMatch(
      /at \/console\/calls: .*\/resources\/withdrawalReview\/actions\/syncCashWithdrawal/,
    );
    expect(problem({ console: { calls: { count: { template: {}, in: 'query' } } } })).toMatch(
      /at \/console\/calls\/count\/template: a template is a JSON body/,
    );
    expect(problem({ console: { calls: { count: { sort: { field: 'a', order: 'b' } } } } })).toBe(
      'map.json at /console/calls/count: unknown member "sort"',
    );
  });

  it('stops the start when a bound logout has no path and BACKEND_LOGOUT_PATH is unset', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'map-console-'));
    const file = path.join(dir, 'map.json');
    writeFileSync(file, JSON.stringify({ console: { calls: { logout: {} } } }));
    const env = {
      BACKEND_MAP: file,
      CHAT_BACKEND_URL: 'http://127.0.0.1:1',
      RESPONSE_AES_KEY: '0123456789abcdef',
      DATA_DIR: dir,
    };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/console\/calls\/logout.*BACKEND_LOGOUT_PATH/);
    expect(loadConfig({ ...env, BACKEND_LOGOUT_PATH: '/api/logout' }).backendMap?.map.console?.calls?.logout).toEqual(
      {},
    );
  });
});
