import { describe, expect, it } from 'vitest';
import {
  INVITE_CODES,
  IP_BLACKLIST,
  SENSITIVE_WORDS,
  USERS,
  type FieldDef,
  type ListResource,
} from '../../server/contract/index.js';
import { detectSeparator, parseCsv } from '../../web/engine/import/csv-read.js';
import {
  foldKey,
  importSpec,
  matchHeader,
  readRows,
  type CellContext,
  type ImportSpec,
} from '../../web/engine/import/import-rows.js';
import { toCsv } from '../../server/contract/csv.js';

const cells = (text: string) => parseCsv(text).records.map((r) => r.cells);

describe('reading CSV', () => {
  it('reads quotes: separators, line breaks and doubled quotes inside them', () => {
    expect(cells('a,b\n"x, y","say ""hi"""\n"two\nlines",z\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\nlines', 'z'],
    ]);
  });

  it('drops the UTF-8 byte-order mark Excel writes', () => {
    const table = parseCsv('\uFEFFword,category\r\n广告,ads\r\n');
    expect(table.records[0]!.cells).toEqual(['word', 'category']);
    expect(table.records[1]!.cells).toEqual(['广告', 'ads']);
  });

  it('takes CRLF, LF and CR line ends, and a last line without one', () => {
    expect(cells('a,b\r\n1,2\n3,4\r5,6')).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
      ['5', '6'],
    ]);
    // A CRLF inside quotes stays in the cell.
    expect(cells('"a\r\nb",c\r\n')).toEqual([['a\r\nb', 'c']]);
  });

  it('finds the separator Excel wrote: semicolons where the comma is the decimal mark, tabs', () => {
    const semi = parseCsv('word;category\r\n"a;b";ads\r\nprice 1,50;other\r\n');
    expect(semi.separator).toBe(';');
    expect(semi.records.map((r) => r.cells)).toEqual([
      ['word', 'category'],
      ['a;b', 'ads'],
      ['price 1,50', 'other'],
    ]);
    expect(parseCsv('ip\treason\n10.0.0.1\tspam\n').records[1]!.cells).toEqual(['10.0.0.1', 'spam']);
    // Separators inside the first row's quotes do not count.
    expect(detectSeparator('"a,b,c,d";x;y\n')).toBe(';');
    expect(detectSeparator('only')).toBe(',');
  });

  it('leaves blank lines out but keeps every record at its spreadsheet row', () => {
    const table = parseCsv('word\n\nfirst\n,\nsecond\n');
    expect(table.records.map((r) => [r.line, r.cells[0]])).toEqual([
      [1, 'word'],
      [3, 'first'],
      [5, 'second'],
    ]);
    // A record spanning two lines is one spreadsheet row.
    expect(parseCsv('a\n"x\ny"\nz\n').records.map((r) => r.line)).toEqual([1, 2, 3]);
  });

  it('reads back what the console exports', () => {
    const text = toCsv(
      [
        { label: 'word', value: (r: { w: string }) => r.w },
        { label: 'note', value: () => 'a, "b"' },
      ],
      [{ w: '=cmd' }, { w: 'plain' }],
    );
    expect(cells(text)).toEqual([
      ['word', 'note'],
      ["'=cmd", 'a, "b"'],
      ['plain', 'a, "b"'],
    ]);
  });
});

const labels: Record<string, string> = {
  word: 'Word',
  category: 'Category',
  ip: 'IP',
  reason: 'Reason',
  expireTime: 'Expires at',
  account: 'Account',
};
const namesOf = (f: FieldDef) => [labels[f.key] ?? f.key];
const ctx: CellContext = { lang: 'en', optionNames: (_f, o) => (o === 'ads' ? ['Advertising'] : []) };
const spec = (resource: ListResource, decl: Parameters<typeof importSpec>[1]) => importSpec(resource, decl)!;
const words = () => spec(SENSITIVE_WORDS, { columns: ['word', 'category'], key: 'word' });

function rowsOf(s: ImportSpec, text: string) {
  const table = parseCsv(text);
  const match = matchHeader(table.records[0]!.cells, s.columns, namesOf);
  return { match, rows: readRows(table, s, match, ctx) };
}

describe('an import declaration', () => {
  it('reads the create fields, or the key and an action’s inputs', () => {
    expect(words().columns.map((f) => f.key)).toEqual(['word', 'category']);
    expect(words().action).toBeNull();
    const bans = spec(USERS, { columns: ['account', 'reason'], key: 'account', action: 'ban' });
    expect(bans.action?.name).toBe('ban');
    // The account is read-only on the list, but the import's key: required.
    expect(bans.key).toMatchObject({ key: 'account', required: true, readOnly: false });
    expect(bans.columns[1]).toMatchObject({ key: 'reason', required: true, maxLength: 200 });
  });

  it('is not offered when the backend lacks the create or the action', () => {
    expect(importSpec({ ...SENSITIVE_WORDS, create: false }, { columns: ['word'], key: 'word' })).toBeNull();
    expect(importSpec({ ...USERS, actions: [] }, { columns: ['account'], key: 'account', action: 'ban' })).toBeNull();
    expect(importSpec(INVITE_CODES, { columns: ['code', 'maxUses', 'expireTime'], key: 'code' })?.columns).toHaveLength(
      3,
    );
  });
});

describe('matching the file’s columns', () => {
  it('by key or label in any order and case, telling what it leaves out and what is missing', () => {
    const match = matchHeader(['CATEGORY', 'notes', ' word '], words().columns, namesOf);
    expect(match).toMatchObject({ header: true, ignored: ['notes'], missing: [] });
    expect([...match.indexes]).toEqual([
      ['category', 0],
      ['word', 2],
    ]);
    expect(matchHeader(['Word'], words().columns, namesOf).missing.map((f) => f.key)).toEqual(['category']);
  });

  it('in the declared order when the first row names none of them', () => {
    const { match, rows } = rowsOf(words(), 'spam,ads\nscam,other\n');
    expect(match.header).toBe(false);
    expect(rows.map((r) => r.values)).toEqual([
      { word: 'spam', category: 'ads' },
      { word: 'scam', category: 'other' },
    ]);
  });
});

describe('checking each row', () => {
  it('with the forms’ own rules, naming the field and the rule', () => {
    const { rows } = rowsOf(words(), `word,category\nok,ads\n,ads\nfine,nonsense\n${'x'.repeat(51)},ads\n`);
    expect(rows.map((r) => [r.line, r.status, r.problems])).toEqual([
      [2, 'ready', []],
      [3, 'invalid', [{ field: 'word', code: 'required' }]],
      [4, 'invalid', [{ field: 'category', code: 'notAnOption' }]],
      [5, 'invalid', [{ field: 'word', code: 'tooLong' }]],
    ]);
  });

  it('reads options by key or label, spaces and case aside', () => {
    const { rows } = rowsOf(words(), 'word,category\na, ADS \nb,advertising\n');
    expect(rows.map((r) => r.values.category)).toEqual(['ads', 'ads']);
  });

  it('marks a record named twice in the file, however it is written', () => {
    const { rows } = rowsOf(words(), 'word,category\nSpam,ads\nscam,ads\n ｓｐａｍ ,other\n');
    expect(rows.map((r) => [r.status, r.duplicateOf])).toEqual([
      ['ready', undefined],
      ['ready', undefined],
      ['duplicate', 2],
    ]);
    expect(foldKey(' ＳＰＡＭ ')).toBe('spam');
  });

  it('checks addresses, and reads dates as spreadsheets write them', () => {
    const blacklist = spec(IP_BLACKLIST, { columns: ['ip', 'reason', 'expireTime'], key: 'ip' });
    const { rows } = rowsOf(
      blacklist,
      'ip;reason;expireTime\n10.0.0.0/8;spam;2030-01-02 09:30\n300.1.1.1;x;\n2001:db8::1;y;2030/1/2\n10.0.0.9;z;tomorrow\n',
    );
    expect(rows.map((r) => r.status)).toEqual(['ready', 'invalid', 'ready', 'invalid']);
    expect(rows[0]!.values.expireTime).toBe(new Date('2030-01-02T09:30').toISOString());
    expect(rows[1]!.problems).toEqual([{ field: 'ip', code: 'ipFormat' }]);
    expect(rows[2]!.values.expireTime).toBe(new Date('2030-01-02T00:00').toISOString());
    expect(rows[3]!.problems).toEqual([{ field: 'expireTime', code: 'dateFormat' }]);
  });

  it('takes away the apostrophe an export put before a formula-like cell', () => {
    const { rows } = rowsOf(words(), "word,category\n'=cmd,ads\n'plain,ads\n");
    expect(rows.map((r) => r.values.word)).toEqual(['=cmd', "'plain"]);
  });

  it('reads numbers for invitation codes and refuses what is not one', () => {
    const codes = spec(INVITE_CODES, { columns: ['code', 'maxUses', 'expireTime'], key: 'code' });
    const { rows } = rowsOf(codes, 'code,maxUses\nSPRING26,5\nBAD,many\nZERO,0\n');
    expect(rows.map((r) => [r.status, r.problems.map((p) => p.code)])).toEqual([
      ['ready', []],
      ['invalid', ['notNumber']],
      ['invalid', ['tooSmall']],
    ]);
    expect(rows[0]!.values).toEqual({ code: 'SPRING26', maxUses: 5 });
  });
});
