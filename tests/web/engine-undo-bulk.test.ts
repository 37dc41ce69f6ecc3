import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMINS,
  GROUPS,
  INVITE_CODES,
  ONLINE_USERS,
  RESOURCES,
  USERS,
  WITHDRAWAL_REVIEW,
} from '../../server/contract/index.js';
import type { ActionDef } from '../../server/contract/index.js';
import en from '../../web/i18n/resources/en.js';
import es from '../../web/i18n/resources/es.js';
import ja from '../../web/i18n/resources/ja.js';
import zh from '../../web/i18n/resources/zh.js';
import type { LabelT } from '../../web/i18n/resources/index.js';
import { asksFirst, undoAction } from '../../web/engine/actions/actions.js';
import { bulkReport, groupRefusals } from '../../web/engine/actions/bulk-report.js';
import { chunk, collectMatching, sendInChunks, MATCHING_PAGE_SIZE } from '../../web/engine/actions/bulk-run.js';
import { ApiError } from '../../web/api/client.js';
import { deleteQuestion, doneText, namesText } from '../../web/engine/record/record-names.js';
import { actionKey, doneKey } from '../../web/engine/shared/labels.js';

const LANGS = { en, zh, es, ja } as const;
const t: LabelT = (key, vars) => i18next.t(key, vars as Record<string, unknown>) as string;
const inLanguage = async (lng: string) => void (await i18next.changeLanguage(lng));

beforeAll(async () => {
  await i18next.init({
    lng: 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    resources: Object.fromEntries(Object.entries(LANGS).map(([lng, m]) => [lng, { translation: m }])),
  });
});

const action = (resource: { actions?: readonly ActionDef[] }, name: string, target: ActionDef['target'] = 'row') =>
  resource.actions!.find((a) => a.name === name && a.target === target)!;

describe('undo pairing', () => {
  it('pairs each reversible action with its reverse on the same resource', () => {
    expect(undoAction(USERS, action(USERS, 'ban'), false)?.name).toBe('unban');
    expect(undoAction(USERS, action(USERS, 'setPrivileged'), false)?.name).toBe('unsetPrivileged');
    expect(undoAction(USERS, action(USERS, 'unsetPrivileged'), false)?.name).toBe('setPrivileged');
    expect(undoAction(ADMINS, action(ADMINS, 'disable'), false)?.name).toBe('enable');
    expect(undoAction(ADMINS, action(ADMINS, 'enable'), false)?.name).toBe('disable');
    expect(undoAction(GROUPS, action(GROUPS, 'muteAll'), false)?.name).toBe('unmuteAll');
  });

  it('offers no undo where the reverse needs inputs a click cannot give, nor where there is no reverse', () => {
    // Banning again needs a reason.
    expect(undoAction(USERS, action(USERS, 'unban'), false)).toBeUndefined();
    expect(undoAction(USERS, { undo: 'ban' }, false)).toBeUndefined();
    expect(undoAction(INVITE_CODES, action(INVITE_CODES, 'disable'), false)).toBeUndefined();
    expect(undoAction(ONLINE_USERS, action(ONLINE_USERS, 'forceLogout'), false)).toBeUndefined();
  });

  it('undoes a bulk ban row by row, unban having no bulk call', () => {
    const reverse = undoAction(USERS, action(USERS, 'ban', 'bulk'), true);
    expect(reverse).toMatchObject({ name: 'unban', target: 'row' });
  });

  it('names in every declared undo an action of the same resource that the undo can run', () => {
    const wrong = RESOURCES.flatMap((r) =>
      'actions' in r && r.actions
        ? r.actions
            .filter((a) => a.undo && !undoAction(r as { actions: readonly ActionDef[] }, a, false))
            .map((a) => `${r.id}.${a.name}`)
        : [],
    );
    expect(wrong).toEqual([]);
  });

  it('asks first before money and before destructive actions that cannot be undone, never before undoable ones', () => {
    expect(asksFirst(action(USERS, 'ban'))).toBe(false);
    expect(asksFirst(action(ADMINS, 'disable'))).toBe(false);
    expect(asksFirst(action(USERS, 'resetPassword'))).toBe(true);
    expect(asksFirst(action(WITHDRAWAL_REVIEW, 'approve'))).toBe(true);
    expect(asksFirst(action(INVITE_CODES, 'disable'))).toBe(true);
  });
});

describe('naming records', () => {
  it('names the first three, then says how many more', async () => {
    await inLanguage('en');
    expect(namesText(t, ['a'])).toBe('a');
    expect(namesText(t, ['a', 'b', 'c'])).toBe('a, b, c');
    expect(namesText(t, ['a', 'b', 'c', 'd'])).toBe('a, b, c and 1 more');
    expect(namesText(t, ['a', 'b', 'c', 'd', 'e', 'f'])).toBe('a, b, c and 3 more');
    await inLanguage('zh');
    expect(namesText(t, ['甲', '乙', '丙', '丁'])).toBe('甲、乙、丙 等另外 1 条');
  });

  it('asks before a delete naming what goes, with the count in the right plural', async () => {
    await inLanguage('en');
    expect(deleteQuestion(t, ['spam'])).toBe('Delete spam? This cannot be undone.');
    expect(deleteQuestion(t, ['a', 'b', 'c'])).toBe('Delete 3 records: a, b, c? This cannot be undone.');
    expect(deleteQuestion(t, ['a', 'b', 'c', 'd', 'e'])).toBe(
      'Delete 5 records: a, b, c and 2 more? This cannot be undone.',
    );
    await inLanguage('es');
    expect(deleteQuestion(t, ['a', 'b'])).toBe('¿Eliminar 2 registros: a, b? No se puede deshacer.');
  });

  it('reports an action in its own past tense where it has one, else by its name', async () => {
    await inLanguage('en');
    expect(doneText(t, 'ban', 'sakura2825')).toBe('Banned sakura2825');
    expect(doneText(t, 'markHandled', 'amy')).toBe('“Mark handled” done: amy');
    expect(doneText(t, 'markHandled', '')).toBe('“Mark handled” done');
  });

  it('has every plural of the new wording in all four languages, and past tenses only for actions that exist', () => {
    const bases = Object.keys(en)
      .filter((k) => k.endsWith('_other'))
      .map((k) => k.slice(0, -'_other'.length));
    for (const [lang, messages] of Object.entries(LANGS)) {
      const missing = bases.flatMap((b) => [`${b}_one`, `${b}_other`]).filter((k) => !(k in messages));
      expect(missing, lang).toEqual([]);
    }
    const actions = new Set(
      RESOURCES.flatMap((r) => ('actions' in r && r.actions ? r.actions.map((a) => a.name) : [])),
    );
    const stray = Object.keys(en).filter((k) => k.startsWith('done.') && !actions.has(k.slice('done.'.length)));
    expect(stray).toEqual([]);
    // Every action that can be undone reads as what happened, in every language.
    const undoable = RESOURCES.flatMap((r) =>
      'actions' in r && r.actions ? r.actions.filter((a) => a.undo).flatMap((a) => [a.name, a.undo!]) : [],
    );
    for (const messages of Object.values(LANGS)) {
      expect(undoable.filter((n) => !(doneKey(n) in messages))).toEqual([]);
      expect(undoable.filter((n) => !(actionKey(n) in messages))).toEqual([]);
    }
  });
});

describe('bulk over every matching record', () => {
  const rows = (n: number, status = (i: number) => (i % 5 === 0 ? 'banned' : 'normal')) =>
    Array.from({ length: n }, (_, i) => ({ id: i + 1, account: `u${i + 1}`, status: status(i + 1) }));

  it('cuts ids into chunks of the given size', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 100)).toEqual([]);
    expect(() => chunk([1], 0)).toThrow(RangeError);
  });

  it('reads the matching rows page by page with the list filters, each row once', async () => {
    const all = rows(250);
    const asked: Record<string, unknown>[] = [];
    const read = async (params: Record<string, unknown>) => {
      asked.push(params);
      const n = Number(params.pageNum);
      return { list: all.slice((n - 1) * MATCHING_PAGE_SIZE, n * MATCHING_PAGE_SIZE), total: all.length };
    };
    const seen: number[] = [];
    const got = await collectMatching(
      read,
      { status: 'normal', pageNum: 3, pageSize: 20 },
      new AbortController().signal,
      (c) => seen.push(c),
    );
    expect(got.map((r) => r.id)).toEqual(all.map((r) => r.id));
    expect(asked).toEqual([1, 2, 3].map((pageNum) => ({ status: 'normal', pageNum, pageSize: 100 })));
    expect(seen).toEqual([100, 200, 250]);
  });

  it('sends a bulk action in chunks of ids, skipping rows its condition leaves out, and reports refusals by row', async () => {
    const calls: unknown[] = [];
    const result = await sendInChunks({
      action: { target: 'bulk', when: { field: 'status', in: ['normal'] } },
      rows: rows(12),
      size: 4,
      send: async (body) => {
        calls.push(body);
        if (calls.length === 2) throw new Error('refused by the backend');
      },
      nameOf: (r) => String(r.account),
      fallbackMessage: 'failed',
      signal: new AbortController().signal,
      onProgress: () => undefined,
    });
    // Rows 5 and 10 are banned already: 10 eligible, in chunks of 4, 4 and 2.
    expect(calls).toEqual([{ ids: [1, 2, 3, 4] }, { ids: [6, 7, 8, 9] }, { ids: [11, 12] }]);
    expect(result.skipped).toBe(2);
    expect(result.done.map((r) => r.id)).toEqual([1, 2, 3, 4, 11, 12]);
    expect(result.refused.map((r) => r.name)).toEqual(['u6', 'u7', 'u8', 'u9']);
    expect(result.refused[0]!.message).toBe('refused by the backend');
    expect(result.cancelled).toBe(false);
  });

  it('reports a chunk the backend took in part row by row, as its answer says', async () => {
    const result = await sendInChunks({
      action: { target: 'bulk' },
      rows: rows(4).map((r) => ({ ...r, status: 'normal' })),
      send: async () => {
        throw new ApiError('1 of 4 refused: 权限不足', 400, true, {
          done: [1, 2, 4],
          refused: [{ id: 3, code: 400, msg: '权限不足' }],
        });
      },
      nameOf: (r) => String(r.account),
      fallbackMessage: 'failed',
      signal: new AbortController().signal,
      onProgress: () => undefined,
    });
    expect(result.done.map((r) => r.id)).toEqual([1, 2, 4]);
    expect(result.refused).toEqual([{ id: '3', name: 'u3', message: '权限不足' }]);
  });

  it('sends a row action one row per call and stops between calls when cancelled', async () => {
    const stop = new AbortController();
    const calls: unknown[] = [];
    const progress: string[] = [];
    const result = await sendInChunks({
      action: { target: 'row' },
      rows: rows(5),
      send: async (body) => {
        calls.push(body);
        if (calls.length === 2) stop.abort();
      },
      nameOf: (r) => String(r.account),
      fallbackMessage: 'failed',
      signal: stop.signal,
      onProgress: (sent, total) => progress.push(`${sent}/${total}`),
    });
    expect(calls).toEqual([{ id: 1 }, { id: 2 }]);
    expect(result).toMatchObject({ skipped: 0, cancelled: true });
    expect(result.done).toHaveLength(2);
    expect(progress).toEqual(['0/5', '1/5', '2/5']);
  });
});

describe('bulk summary', () => {
  it('gives a reason once for every row it refused, in the order the reasons came', () => {
    const r = (id: string, message: string) => ({ id, name: `user${id}`, message });
    const groups = groupRefusals([
      r('1', 'chunk refused'),
      r('2', 'banned already'),
      r('3', 'chunk refused'),
      r('4', 'chunk refused'),
    ]);
    expect(groups.map((g) => [g.message, g.rows.map((x) => x.id)])).toEqual([
      ['chunk refused', ['1', '3', '4']],
      ['banned already', ['2']],
    ]);
    expect(groupRefusals([])).toEqual([]);
  });

  it('reports as toasts: the records done by name, then what was held, skipped and refused, each refusal against its records', async () => {
    const refused = ['4', '5', '6', '7'].map((id) => ({ id, name: `user${id}`, message: 'Ban service busy' }));
    expect(
      bulkReport(t, 'ban', {
        done: ['user1', 'user2', 'user3', 'user8'],
        held: 1,
        skipped: { count: 2, why: 'Status: Normal' },
        refused: [...refused, { id: '9', name: 'user9', message: 'gone' }],
        cancelled: true,
      }),
    ).toEqual([
      { kind: 'success', text: 'Banned user1, user2, user3 and 1 more' },
      { kind: 'info', text: '1 waiting for a second approver' },
      { kind: 'info', text: '2 skipped: the action only applies to Status: Normal' },
      { kind: 'warning', text: '4 refused: user4, user5, user6 and 1 more: Ban service busy' },
      { kind: 'warning', text: '1 refused: user9: gone' },
      { kind: 'warning', text: 'Cancelled: the remaining records were not sent' },
    ]);
    // Nothing done: no toast saying so, only why.
    expect(bulkReport(t, 'ban', { done: [], refused: refused.slice(0, 1) })).toEqual([
      { kind: 'warning', text: '1 refused: user4: Ban service busy' },
    ]);
    await inLanguage('zh');
    expect(bulkReport(t, 'ban', { done: [], refused: refused.slice(0, 2) })[0]!.text).toBe(
      '2 条被拒绝：user4、user5：Ban service busy',
    );
    await inLanguage('en');
  });
});
