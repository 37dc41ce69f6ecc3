import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvFileName, toCsv } from '../../server/contract/csv.js';
import { csvRecordCounter } from '../../web/engine/shared/export-csv.js';

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
    // The tab is a separator too: a paste splits there, and the cell after it must not run either.
    expect(csvCell('\t=1')).toBe(`"'\t'=1"`);
  });

  it('quotes a cell holding a separator of any common locale, and defuses a formula after each one', () => {
    // In a locale that splits on `;` (de, fr, es), `x;=2+5;y` is three cells, the second a formula.
    expect(csvCell('x;=2+5;y')).toBe(`"x;'=2+5;y"`);
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('a\tb')).toBe('"a\tb"');
    expect(csvCell('note, =HYPERLINK("x")')).toBe(`"note, '=HYPERLINK(""x"")"`);
    expect(csvCell('x;@cmd')).toBe(`"x;'@cmd"`);
    expect(csvCell('x;+A1')).toBe(`"x;'+A1"`);
    // Negative amounts and phone numbers after a separator stay as they are.
    expect(csvCell('total;-12.50;+8613800138000')).toBe('"total;-12.50;+8613800138000"');
  });

  it('names the file after the resource and the day', () => {
    expect(csvFileName('billingRecords', new Date(2024, 4, 3))).toBe('billingRecords-2024-05-03.csv');
  });
});

describe('counting the rows of an export as it arrives', () => {
  it('counts line ends outside quoted cells, whatever the pieces the text comes in', () => {
    const text = '\uFEFFa,b\r\n1,"two\r\nlines"\r\n3,"say ""hi"""\r\n';
    for (const size of [1, 2, 5, text.length]) {
      const count = csvRecordCounter();
      let records = 0;
      for (let i = 0; i < text.length; i += size) records = count(text.slice(i, i + size));
      // The header and two rows.
      expect(records).toBe(3);
    }
  });
});
