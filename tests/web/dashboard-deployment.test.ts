import { afterEach, describe, expect, it, vi } from 'vitest';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import type { MonitoringAnswer, RunnerConfig, RunnerState } from '../../server/contract/index.js';
import { setApiHooks } from '../../web/api/client.js';
import { toast, toasts } from '../../web/lib/toast.js';
import { initI18n } from '../../web/i18n/index.js';
import { appendSample, historyColumns, percent, sampleOf, type Sample } from '../../web/deployment/history.js';
import { uptimeParts } from '../../web/deployment/format.js';
import { formatBytes } from '../../web/lib/format.js';
import { deploymentKeys, setSwitchMutationOptions, SWITCH_CALLS } from '../../web/deployment/queries.js';
import { changedFields, changesToSave, draftOf, validateDraft } from '../../web/deployment/runner-config.js';
import { urlProblem } from '../../web/deployment/migration-page.js';

initI18n();
// As the app wires it: a failed call is told in a toast.
setApiHooks({ notifyError: toast.error, loggedInElsewhere: () => {}, sessionEnded: () => {} });

const s = (t: number, cpu = 10, memory = 50): Sample => ({ t, cpu, memory });

describe('monitor history', () => {
  it('keeps the last N samples in time order', () => {
    let h: readonly Sample[] = [];
    for (let t = 1; t <= 7; t++) h = appendSample(h, s(t), 5);
    expect(h.map((x) => x.t)).toEqual([3, 4, 5, 6, 7]);
  });

  it('does not count the same snapshot twice and files a late one in order', () => {
    let h: readonly Sample[] = [s(10), s(20)];
    const same = appendSample(h, s(20, 99));
    expect(same).toBe(h);
    h = appendSample(h, s(15));
    expect(h.map((x) => x.t)).toEqual([10, 15, 20]);
    expect(appendSample([s(1), s(2), s(3)], s(0), 3).map((x) => x.t)).toEqual([1, 2, 3]);
  });

  it('reads CPU and the memory share from a snapshot', () => {
    const answer = {
      time: '2024-06-01T10:00:05.000Z',
      host: { cpu: { usagePercent: 31.5 }, memory: { usedBytes: 8, totalBytes: 32 } },
    } as MonitoringAnswer;
    expect(sampleOf(answer)).toEqual({ t: Date.UTC(2024, 5, 1, 10, 0, 5) / 1000, cpu: 31.5, memory: 25 });
    expect(sampleOf({ ...answer, time: 'soon' })).toBeNull();
    expect(percent(5, 0)).toBe(0);
    expect(historyColumns([s(1, 2, 3), s(4, 5, 6)])).toEqual([
      [1, 4],
      [2, 5],
      [3, 6],
    ]);
  });

  it('formats bytes in binary units and uptimes in days and hours', () => {
    expect(formatBytes(512, 'en', true)).toBe('512 B');
    expect(formatBytes(1536, 'en', true)).toBe('1.5 KiB');
    expect(formatBytes(1536, 'es', true)).toBe('1,5 KiB');
    expect(formatBytes(19 * 1024 ** 3, 'en', true)).toBe('19 GiB');
    expect(formatBytes(150 * 1024 ** 2, 'en', true)).toBe('150 MiB');
    expect(uptimeParts(3 * 86_400 + 5 * 3600 + 59)).toEqual({ days: 3, hours: 5, minutes: 0 });
  });
});

const CONFIG: RunnerConfig = {
  apiUrl: 'https://api.example.com',
  websocketUrl: 'wss://im.example.com/ws',
  fileServerUrl: 'https://files.example.com',
  maxUploadMb: 100,
  messageRetentionDays: 180,
  maxGroupMembers: 2000,
  workerCount: 4,
  logLevel: 'info',
};

describe('runner config form', () => {
  it('accepts the saved config as it is', () => {
    expect(validateDraft(draftOf(CONFIG))).toEqual({});
  });

  it('refuses a link without a scheme, an empty link and numbers out of range', () => {
    const draft = {
      ...draftOf(CONFIG),
      apiUrl: 'api.example.com',
      fileServerUrl: '  ',
      workerCount: '65',
      maxUploadMb: '1.5',
      maxGroupMembers: 'many',
      logLevel: 'loud',
    };
    expect(validateDraft(draft)).toEqual({
      apiUrl: 'linkFormat',
      fileServerUrl: 'required',
      workerCount: 'tooLarge',
      maxUploadMb: 'notInteger',
      maxGroupMembers: 'notNumber',
      logLevel: 'notAnOption',
    });
  });

  it('sends only the changed fields, trimmed and typed', () => {
    const saved = draftOf(CONFIG);
    const draft = { ...saved, websocketUrl: ' wss://new.example.com/ws ', workerCount: '8' };
    expect(changedFields(draft, saved)).toEqual(['websocketUrl', 'workerCount']);
    expect(changesToSave(draft, saved)).toEqual({ websocketUrl: 'wss://new.example.com/ws', workerCount: 8 });
    expect(changedFields({ ...saved, apiUrl: `${saved.apiUrl} ` }, saved)).toEqual([]);
  });

  it('checks the migration link before sending it', () => {
    expect(urlProblem('')).toBe('required');
    expect(urlProblem('backup.example.com/dump.sql')).toBe('linkFormat');
    expect(urlProblem(' https://backup.example.com/dump.sql ')).toBeNull();
  });
});

describe('optimistic start switch', () => {
  const STATE: RunnerState = {
    moment: true,
    wallet: true,
    momentPublic: false,
    automaticRegister: true,
    config: CONFIG,
  };

  afterEach(() => {
    vi.unstubAllGlobals();
    toasts.value = [];
  });

  function answer(body: unknown) {
    return vi.fn(
      async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
  }

  it('shows the new position at once and keeps it when the backend agrees', async () => {
    const client = new QueryClient();
    client.setQueryData(deploymentKeys.runner(), STATE);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => {
      await gate;
      return new Response(JSON.stringify({ code: 200, msg: 'ok', data: { ...STATE, wallet: false, moment: false } }), {
        status: 200,
      });
    });
    vi.stubGlobal('fetch', fetch);
    const observer = new MutationObserver(client, setSwitchMutationOptions(client));
    const done = observer.mutate({ name: 'wallet', enabled: false });
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(client.getQueryData<RunnerState>(deploymentKeys.runner())?.wallet).toBe(false);
    release();
    await done;
    const after = client.getQueryData<RunnerState>(deploymentKeys.runner());
    expect(after?.wallet).toBe(false);
    // Only the switch that was set is taken from the answer.
    expect(after?.moment).toBe(true);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(SWITCH_CALLS.wallet);
    expect(JSON.parse(String(init?.body))).toEqual({ enabled: false });
  });

  it('returns to the old position and toasts the server message when the call fails', async () => {
    const client = new QueryClient();
    client.setQueryData(deploymentKeys.runner(), STATE);
    vi.stubGlobal('fetch', answer({ code: 500, msg: 'boom' }));
    const observer = new MutationObserver(client, setSwitchMutationOptions(client));
    await expect(observer.mutate({ name: 'momentPublic', enabled: true })).rejects.toThrow('boom');
    expect(client.getQueryData<RunnerState>(deploymentKeys.runner())?.momentPublic).toBe(false);
    expect(toasts.value.map((t) => [t.kind, t.text])).toEqual([['error', 'boom']]);
  });
});
