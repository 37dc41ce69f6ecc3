import { describe, expect, it } from 'vitest';
import { SENSITIVE_WORDS, USERS } from '../../server/contract/index.js';
import { ApiError } from '../../web/api/client.js';
import { parseCsv } from '../../web/engine/import/csv-read.js';
import { foldKey, importSpec, matchHeader, readRows, type ImportSpec } from '../../web/engine/import/import-rows.js';
import { findByKey, runImport, type ImportCalls } from '../../web/engine/import/import-run.js';

type Row = Record<string, unknown>;

/** A list held in memory behind the screen's three calls, searched as the sandbox searches (substring, any case). */
function memoryList(
  rows: Row[],
  key: string,
  options: { refuse?: (values: Row) => string | null; failAfter?: number } = {},
) {
  const sent: { call: string; body: Row }[] = [];
  let calls = 0;
  const count = () => {
    calls++;
    if (options.failAfter !== undefined && calls > options.failAfter)
      throw new ApiError('The server connection is abnormal', 0, true);
  };
  const api: ImportCalls = {
    async search(keyword, pageNum, pageSize) {
      count();
      const hits = rows.filter((r) => String(r[key]).toLowerCase().includes(keyword.toLowerCase()));
      return { list: hits.slice((pageNum - 1) * pageSize, pageNum * pageSize), total: hits.length };
    },
    async create(values) {
      count();
      const refused = options.refuse?.(values);
      if (refused) throw new ApiError(refused, 400, true);
      sent.push({ call: 'create', body: values });
      rows.push({ id: rows.length + 1, ...values });
    },
    async act(action, body) {
      count();
      sent.push({ call: action, body });
      const row = rows.find((r) => r.id === body.id)!;
      if (action === 'ban') row.status = 'banned';
    },
  };
  return { api, sent, rows };
}

const words = importSpec(SENSITIVE_WORDS, { columns: ['word', 'category'], key: 'word' })!;
const bans = importSpec(USERS, { columns: ['account', 'reason'], key: 'account', action: 'ban' })!;

function ready(spec: ImportSpec, text: string) {
  const table = parseCsv(text);
  const match = matchHeader(table.records[0]!.cells, spec.columns, () => []);
  return readRows(table, spec, match, { lang: 'en', optionNames: () => [] }).filter((r) => r.status === 'ready');
}

const run = (spec: ImportSpec, api: ImportCalls, text: string, signal = new AbortController().signal) =>
  runImport({ calls: api, spec, rows: ready(spec, text), signal, onProgress: () => {} });

describe('running an import', () => {
  it('creates what is new, skips what is there, and adds nothing the second time', async () => {
    const list = memoryList([{ id: 1, word: 'Spam', category: 'ads' }], 'word');
    const csv = 'word,category\nspam,ads\nscam,other\ngift,ads\n';
    const first = await run(words, list.api, csv);
    expect(Object.fromEntries([...first].map(([line, o]) => [line, o.status]))).toEqual({
      2: 'skipped',
      3: 'added',
      4: 'added',
    });
    expect(first.get(2)!.reason).toEqual({ kind: 'present' });
    expect(list.sent.map((s) => s.body.word)).toEqual(['scam', 'gift']);
    const second = await run(words, list.api, csv);
    expect([...second.values()].map((o) => o.status)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(list.rows).toHaveLength(3);
  });

  it('finds a record past the first page of search hits, and only an exact one', async () => {
    const many = Array.from({ length: 250 }, (_, i) => ({ id: i + 1, word: `ad${i}` }));
    const list = memoryList([...many, { id: 999, word: 'AD' }], 'word');
    const signal = new AbortController().signal;
    expect((await findByKey(list.api, 'word', 'ad', signal))?.id).toBe(999);
    expect(await findByKey(list.api, 'word', 'a', signal)).toBeNull();
    expect(foldKey('AD')).toBe('ad');
  });

  it('reports the backend’s own refusal on its row and goes on', async () => {
    const list = memoryList([], 'word', { refuse: (v) => (v.word === 'bad' ? 'That word is reserved' : null) });
    const outcomes = await run(words, list.api, 'word,category\nbad,ads\ngood,ads\n');
    expect(outcomes.get(2)).toEqual({
      status: 'refused',
      reason: { kind: 'backend', message: 'That word is reserved' },
    });
    expect(outcomes.get(3)).toEqual({ status: 'added' });
  });

  it('runs an action on the records its key names: done, already done, or no such record', async () => {
    const list = memoryList(
      [
        { id: 7, account: 'sakura', status: 'normal' },
        { id: 8, account: 'kenji', status: 'banned' },
      ],
      'account',
    );
    const outcomes = await run(bans, list.api, 'account,reason\nsakura,spam\nkenji,spam\nnobody,spam\n');
    expect(outcomes.get(2)).toEqual({ status: 'done' });
    expect(outcomes.get(3)).toEqual({ status: 'skipped', reason: { kind: 'applied' } });
    expect(outcomes.get(4)).toEqual({ status: 'refused', reason: { kind: 'missing' } });
    expect(list.sent).toEqual([{ call: 'ban', body: { id: 7, reason: 'spam' } }]);
  });

  it('stops at a lost connection: the rows after it are not sent', async () => {
    const list = memoryList([], 'word', { failAfter: 2 });
    const text = `word,category\n${Array.from({ length: 10 }, (_, i) => `w${i},ads`).join('\n')}\n`;
    const outcomes = await runImport({
      calls: list.api,
      spec: words,
      rows: ready(words, text),
      signal: new AbortController().signal,
      onProgress: () => {},
      concurrency: 1,
    });
    const statuses = [...outcomes.values()].map((o) => o.status);
    expect(statuses.filter((s) => s === 'added')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'refused')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'notSent')).toHaveLength(8);
  });

  it('stops between rows when cancelled, with progress up to there', async () => {
    const list = memoryList([], 'word');
    const controller = new AbortController();
    const progress: number[] = [];
    const text = `word,category\n${Array.from({ length: 20 }, (_, i) => `w${i},ads`).join('\n')}\n`;
    const outcomes = await runImport({
      calls: list.api,
      spec: words,
      rows: ready(words, text),
      signal: controller.signal,
      concurrency: 2,
      onProgress: (done) => {
        progress.push(done);
        if (done === 5) controller.abort();
      },
    });
    const added = [...outcomes.values()].filter((o) => o.status === 'added').length;
    expect(added).toBeGreaterThanOrEqual(5);
    expect(added).toBeLessThan(20);
    expect([...outcomes.values()].filter((o) => o.status === 'notSent')).toHaveLength(20 - added);
    expect(list.rows).toHaveLength(added);
    expect(progress[0]).toBe(0);
  });
});
