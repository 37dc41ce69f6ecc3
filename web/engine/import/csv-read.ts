/**
 * Reading a CSV file as administrators' spreadsheets write it: RFC 4180 quoting (separators, line
 * breaks and doubled quotes inside quotes), a UTF-8 byte-order mark, CRLF, LF or CR line ends,
 * and the separator Excel writes for the locale: commas, or semicolons where the comma is the
 * decimal mark (Spanish, German...), or tabs ("Unicode text"). Pure, so every case is unit-tested.
 */

export type Separator = ',' | ';' | '\t';

export interface CsvRecord {
  /** The record's place in the file, 1 for the first (the header when there is one), as a spreadsheet numbers its rows. */
  line: number;
  cells: string[];
}

export interface CsvTable {
  separator: Separator;
  /** Blank records (an empty line, a row of empty cells) are left out; the others keep their line. */
  records: CsvRecord[];
}

const SEPARATORS: readonly Separator[] = [',', ';', '\t'];

/** The separator of the first record: whichever of comma, semicolon and tab occurs most outside quotes (a comma on a tie). */
export function detectSeparator(text: string): Separator {
  const counts = new Map<Separator, number>(SEPARATORS.map((s) => [s, 0]));
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && counts.has(c as Separator)) counts.set(c as Separator, counts.get(c as Separator)! + 1);
  }
  let best: Separator = ',';
  for (const s of SEPARATORS) if (counts.get(s)! > counts.get(best)!) best = s;
  return best;
}

export function parseCsv(
  input: string,
  separator: Separator = detectSeparator(input.replace(/^\uFEFF/, '')),
): CsvTable {
  const text = input.replace(/^\uFEFF/, '');
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  // Whether the current cell opened with a quote: a quote elsewhere is taken as a plain character.
  let inQuotes = false;
  let line = 1;

  const endCell = () => {
    cells.push(cell);
    cell = '';
    quoted = false;
  };
  const endRecord = () => {
    endCell();
    if (cells.some((c) => c.trim() !== '')) records.push({ line, cells });
    cells = [];
    line++;
  };

  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else inQuotes = false;
      } else cell += c;
      continue;
    }
    if (c === '"' && cell === '' && !quoted) {
      inQuotes = true;
      quoted = true;
    } else if (c === separator) endCell();
    else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
    } else cell += c;
  }
  // A last record without a line end; a file ending in a line end adds no empty record.
  if (cell !== '' || cells.length > 0 || quoted) endRecord();
  return { separator, records };
}
