/**
 * A streaming multipart/form-data reader (RFC 7578), enough for a backend's upload call: text
 * parts are collected (bounded), file parts handed on chunk by chunk as they arrive, so a large
 * package is written to disk without ever being held in memory.
 */

export interface PartInfo {
  name: string;
  filename: string | null;
  contentType: string | null;
}

export interface FileSink {
  write(chunk: Buffer): void | Promise<void>;
  end(): void | Promise<void>;
}

export interface MultipartHandlers {
  field(name: string, value: string): void;
  file(part: PartInfo): FileSink;
}

export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MultipartError';
  }
}

const HEADER_LIMIT = 16 * 1024;
const FIELD_LIMIT = 64 * 1024;
const HEADERS_END = Buffer.from('\r\n\r\n');

/** The boundary of a multipart/form-data Content-Type, or null. */
export function boundaryOf(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]!) : null;
}

function parseHeaders(text: string): PartInfo {
  let disposition = '';
  let contentType: string | null = null;
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-disposition') disposition = value;
    else if (name === 'content-type') contentType = value;
  }
  if (!/^form-data\b/i.test(disposition)) throw new MultipartError('a part without Content-Disposition: form-data');
  const param = (key: string) => {
    const match =
      new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(disposition) ??
      new RegExp(`;\\s*${key}=([^;\\s]+)`, 'i').exec(disposition);
    return match ? match[1]!.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n') : null;
  };
  const name = param('name');
  if (name === null) throw new MultipartError('a part without a name');
  return { name, filename: param('filename'), contentType };
}

type State = 'preamble' | 'headers' | 'body' | 'after-delimiter' | 'done';

export async function readMultipart(
  source: AsyncIterable<Uint8Array>,
  boundary: string,
  handlers: MultipartHandlers,
): Promise<void> {
  // Every delimiter, the first included, is read as CRLF "--" boundary: the body is taken to start with a CRLF.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let buffer: Buffer = Buffer.from('\r\n');
  let state = 'preamble' as State;
  let part: PartInfo | null = null;
  let sink: FileSink | null = null;
  let field: Buffer[] = [];
  let fieldSize = 0;

  const emit = async (data: Buffer) => {
    if (data.length === 0 || state === 'preamble') return;
    if (sink) {
      await sink.write(data);
      return;
    }
    fieldSize += data.length;
    if (fieldSize > FIELD_LIMIT) throw new MultipartError(`the part ${part?.name ?? ''} is too long`);
    field.push(data);
  };
  const endPart = async () => {
    if (state === 'preamble') return;
    if (sink) await sink.end();
    else if (part) handlers.field(part.name, Buffer.concat(field).toString('utf8'));
    sink = null;
    part = null;
    field = [];
    fieldSize = 0;
  };

  const step = async (): Promise<boolean> => {
    if (state === 'preamble' || state === 'body') {
      const at = buffer.indexOf(delimiter);
      if (at < 0) {
        // Keep what could be the start of a delimiter split across two chunks.
        const safe = Math.max(0, buffer.length - (delimiter.length - 1));
        await emit(buffer.subarray(0, safe));
        buffer = buffer.subarray(safe);
        return false;
      }
      await emit(buffer.subarray(0, at));
      await endPart();
      buffer = buffer.subarray(at + delimiter.length);
      state = 'after-delimiter';
      return true;
    }
    if (state === 'after-delimiter') {
      if (buffer.length < 2) return false;
      if (buffer[0] === 0x2d && buffer[1] === 0x2d) {
        state = 'done';
        return false;
      }
      // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
      const lineEnd = buffer.indexOf('\r\n');
      if (lineEnd < 0) {
        if (buffer.length > 256) throw new MultipartError('a delimiter line that does not end');
        return false;
      }
      if (!/^[ \t]*$/.test(buffer.subarray(0, lineEnd).toString('latin1')))
        throw new MultipartError('text after a delimiter');
      buffer = buffer.subarray(lineEnd + 2);
      state = 'headers';
      return true;
    }
    if (state === 'headers') {
      const end = buffer.indexOf(HEADERS_END);
      if (end < 0) {
        if (buffer.length > HEADER_LIMIT) throw new MultipartError('part headers too long');
        return false;
      }
      part = parseHeaders(buffer.subarray(0, end).toString('utf8'));
      buffer = buffer.subarray(end + HEADERS_END.length);
      if (part.filename !== null) sink = handlers.file(part);
      state = 'body';
      return true;
    }
    return false;
  };

  for await (const chunk of source) {
    if (state === 'done') continue;
    buffer = buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([buffer, chunk]);
    while (await step());
  }
  if (state !== 'done') throw new MultipartError('the body ended before its closing delimiter');
}
