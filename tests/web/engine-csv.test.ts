import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvFileName, toCsv } from '../../web/engine/csv.js';
import { collectRows } from '../../web/engine/export-csv.js';

describe('CSV', () => {
  it('starts with a BOM, ends lines with CRLF and quotes what needs it', () => {
    const text = toCsv(
      [
        { label: '账号', value: (r: { a: string; b: string }) => r.a },
        { label: 'Note, with comma', value: (r) => r.b },
      ],
      [
        { a: '张三', b: 'plain' },
        { a: 'say "hi"', b: 'line\nbreak' },
      ],
    );
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text.slice(1)).toBe('账号,"Note, with comma"\r\n张三,plain\r\n"say ""hi""","line\nbreak"\r\n');
  });

  it('keeps formulas from running but leaves negative numbers alone', () => {
    expect(csvCell('=SUM(A1:A2)')).toBe("'=SUM(A1:A2)");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('-12.50')).toBe('-12.50');
    expect(csvCell('-x')).toBe("'-x");
    expect(csvCell(' padded ')).toBe('" padded "');
  });

  it('leaves phone numbers and accounts starting with + as they are, but not a formula behind a sign', () => {
    expect(csvCell('+8613800138000')).toBe('+8613800138000');
    expect(csvCell('+1.5e3')).toBe('+1.5e3');
    expect(csvCell('+A1')).toBe("'+A1");
    expect(csvCell("+cmd|' /C calc'!A0")).toBe("'+cmd|' /C calc'!A0");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('\t=1')).toBe("'\t=1");
  });

  it('names the file after the resource and the day', () => {
    expect(csvFileName('billingRecords', new Date(2024, 4, 3))).toBe('billingRecords-2024-05-03.csv');
  });
});

describe('collecting the whole filtered set', () => {
  const source = (total: number) => {
    const calls: Record<string, unknown>[] = [];
    const fetchPage = async (q: Record<string, unknown>) => {
      calls.push(q);
      const pageNum = Number(q.pageNum);
      const pageSize = Number(q.pageSize);
      const start = (pageNum - 1) * pageSize;
      const list = Array.from({ length: Math.max(0, Math.min(pageSize, total - start)) }, (_, i) => ({ id: start + i + 1 }));
      return { list, total };
    };
    return { calls, fetchPage };
  };

  it('pages with 200 rows at a time and keeps the filters', async () => {
    const { calls, fetchPage } = source(450);
    const result = await collectRows(fetchPage, { status: 'banned', sort: '-id' });
    expect(result.rows).toHaveLength(450);
    expect(result.capped).toBe(false);
    expect(calls.map((c) => c.pageNum)).toEqual([1, 2, 3]);
    expect(calls.every((c) => c.pageSize === 200 && c.status === 'banned' && c.sort === '-id')).toBe(true);
  });

  it('stops at the cap and says so', async () => {
    const { calls, fetchPage } = source(50_000);
    const result = await collectRows(fetchPage, {}, { cap: 1000 });
    expect(result.rows).toHaveLength(1000);
    expect(result.capped).toBe(true);
    expect(calls).toHaveLength(5);
  });

  it('stops on a short page even if the total says more', async () => {
    let n = 0;
    const result = await collectRows(async () => ({ list: n++ === 0 ? [{ id: 1 }] : [], total: 999 }), {});
    expect(result.rows).toEqual([{ id: 1 }]);
  });
});
