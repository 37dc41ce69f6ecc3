import { randomBytes } from 'node:crypto';

/**
 * A multipart/form-data body written around a file that is still arriving: the text parts and
 * the file part's header go first, then the file's bytes as they come, then the closing
 * delimiter. Its length is known up front whenever the file's is, so the backend gets a
 * Content-Length rather than a chunked body, which some upload handlers refuse.
 */

/** As browsers write a part's name and file name: quotes and line breaks escaped (WHATWG HTML, multipart/form-data). */
function quoted(text: string): string {
  return text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export interface MultipartFrame {
  boundary: string;
  contentType: string;
  /** Everything before the file's bytes. */
  head: Buffer;
  /** Everything after them. */
  tail: Buffer;
}

export function multipartFrame(
  parts: readonly (readonly [string, string])[],
  file: { part: string; name: string; contentType: string },
): MultipartFrame {
  const boundary = `----ConsoleUpload${randomBytes(12).toString('hex')}`;
  const text = parts
    .map(
      ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
    )
    .join('');
  const fileHeader =
    `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.part)}"; filename="${quoted(file.name)}"\r\n` +
    `Content-Type: ${file.contentType}\r\n\r\n`;
  return {
    boundary,
    contentType: `multipart/form-data; boundary=${boundary}`,
    head: Buffer.from(text + fileHeader, 'utf8'),
    tail: Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'),
  };
}
