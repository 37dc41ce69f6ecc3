import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  checkUploadHead,
  checkUploadTail,
  claimedFileType,
  cleanFileName,
  detectedFileType,
  uploadExtensions,
} from '../../server/contract/index.js';
import { TailWindow } from '../../server/uploads/file-stream.js';
import { multipartFrame } from '../../server/uploads/multipart.js';
import { storedPath } from '../../server/uploads/stored-path.js';
import { MultipartError, boundaryOf, readMultipart } from '../../sandbox/lib/multipart.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('telling a file’s type by its own bytes', () => {
  const heads: Record<string, Buffer> = {
    png: bytes([0x89], 'PNG\r\n\x1a\n', 'rest'),
    jpeg: bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'),
    gif: bytes('GIF89a', [1, 0]),
    webp: bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '),
    ico: bytes([0, 0, 1, 0, 1, 0, 16, 16]),
    svg: bytes('\xEF\xBB\xBF<?xml version="1.0"?>\n<!-- drawn by hand -->\n<svg xmlns="http://www.w3.org/2000/svg"/>'),
    apk: bytes('PK\x03\x04', [20, 0]),
    exe: bytes('MZ', [0x90, 0]),
    msi: bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
    pkg: bytes('xar!', [0, 28]),
  };

  it('accepts each type under its own extension', () => {
    const names: Record<string, string> = {
      png: 'a.PNG',
      jpeg: 'a.jpeg',
      gif: 'a.gif',
      webp: 'a.webp',
      ico: 'favicon.ico',
      svg: 'a.svg',
    };
    for (const [id, head] of Object.entries(heads)) {
      const kind = ['apk', 'exe', 'msi', 'pkg'].includes(id) ? 'package' : 'image';
      const name = names[id] ?? `setup.${id}`;
      expect(checkUploadHead(kind, name, head), id).toEqual({ type: claimedFileType(name, kind) });
    }
    expect(checkUploadHead('image', 'photo.jpg', heads.jpeg!)).toMatchObject({ type: { id: 'jpeg' } });
  });

  it('refuses a renamed file, saying what it looks like', () => {
    expect(checkUploadHead('image', 'logo.png', heads.jpeg!)).toEqual({ reason: 'contents', detected: 'jpeg' });
    expect(checkUploadHead('package', 'chat.apk', heads.exe!)).toEqual({ reason: 'contents', detected: 'exe' });
    expect(checkUploadHead('image', 'page.svg', bytes('<!doctype html><html><svg></svg></html>'))).toEqual({
      reason: 'contents',
      detected: null,
    });
    expect(checkUploadHead('image', 'notes.txt', heads.png!)).toEqual({ reason: 'extension' });
    expect(checkUploadHead('image', 'chat.apk', heads.apk!)).toEqual({ reason: 'extension' });
    expect(checkUploadHead('image', 'noextension', heads.png!)).toEqual({ reason: 'extension' });
    expect(checkUploadHead('image', 'empty.png', Buffer.alloc(0))).toEqual({ reason: 'empty' });
    expect(detectedFileType(bytes('hello'))).toBeNull();
  });

  it('checks a disk image by its trailer once the file has passed', () => {
    const type = claimedFileType('Chat.dmg', 'package')!;
    const head = bytes('anything at all');
    expect(checkUploadHead('package', 'Chat.dmg', head)).toEqual({ type });
    expect(checkUploadTail(type, head, bytes('koly', Array(508).fill(0)))).toBeNull();
    expect(checkUploadTail(type, head, Buffer.alloc(512))).toEqual({ reason: 'contents', detected: null });
    // A file shorter than the trailer cannot be one.
    expect(checkUploadTail(type, head, bytes('koly'))).toMatchObject({ reason: 'contents' });
  });

  it('names the extensions each kind takes', () => {
    expect(uploadExtensions('image')).toEqual(['png', 'jpg', 'jpeg', 'gif', 'webp', 'ico', 'svg']);
    expect(uploadExtensions('package')).toEqual(['apk', 'aab', 'ipa', 'zip', 'exe', 'msi', 'pkg', 'dmg']);
  });

  it('keeps a file name safe for a query string and a part header', () => {
    expect(cleanFileName('C:\\Users\\li\\logo "new".png')).toBe('logo new.png');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('图标\r\n.png')).toBe('图标.png');
  });
});

describe('the last bytes of a stream', () => {
  it('are those of the whole stream, however it was cut', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.array(fc.nat(300), { maxLength: 20 }), (data, cuts) => {
        const window = new TailWindow(512);
        let at = 0;
        for (const cut of [...cuts, data.length]) {
          const end = Math.min(data.length, at + cut);
          window.push(data.subarray(at, end));
          at = end;
        }
        window.push(data.subarray(at));
        expect(window.bytes().equals(Buffer.from(data.subarray(Math.max(0, data.length - 512))))).toBe(true);
      }),
    );
  });
});

async function* chunksOf(body: Buffer, cuts: number[]): AsyncGenerator<Buffer> {
  let at = 0;
  for (const cut of cuts) {
    if (at >= body.length) break;
    yield body.subarray(at, at + Math.max(1, cut));
    at += Math.max(1, cut);
  }
  if (at < body.length) yield body.subarray(at);
}

async function read(body: Buffer, boundary: string, cuts: number[]) {
  const fields: Record<string, string> = {};
  const files: { name: string; filename: string | null; contentType: string | null; data: Buffer }[] = [];
  await readMultipart(chunksOf(body, cuts), boundary, {
    field: (name, value) => void (fields[name] = value),
    file: (part) => {
      const chunks: Buffer[] = [];
      return {
        write: (chunk) => void chunks.push(Buffer.from(chunk)),
        end: () => void files.push({ ...part, data: Buffer.concat(chunks) }),
      };
    },
  });
  return { fields, files };
}

describe('multipart bodies, written by the gateway and read by the sandbox', () => {
  it('round-trip text parts and a file, whatever the chunks and whatever the file holds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 3000 }),
        fc.array(fc.integer({ min: 1, max: 97 }), { maxLength: 60 }),
        async (data, cuts) => {
          const frame = multipartFrame(
            [
              ['kind', 'image'],
              ['name', '标志 "1".png'],
            ],
            { part: 'file', name: '标志 "1".png', contentType: 'image/png' },
          );
          // The file may hold the boundary's own bytes but a CRLF and dashes: the delimiter is what counts.
          const file = Buffer.concat([Buffer.from(`--${frame.boundary}`), Buffer.from(data)]);
          const body = Buffer.concat([frame.head, file, frame.tail]);
          const parsed = await read(body, boundaryOf(frame.contentType)!, cuts);
          expect(parsed.fields).toEqual({ kind: 'image', name: '标志 "1".png' });
          expect(parsed.files).toHaveLength(1);
          expect(parsed.files[0]).toMatchObject({ name: 'file', filename: '标志 "1".png', contentType: 'image/png' });
          expect(parsed.files[0]!.data.equals(file)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reads a browser’s body: a preamble, a quoted boundary, transport padding', async () => {
    const body = Buffer.from(
      'ignored preamble\r\n--XyZ  \r\nContent-Disposition: form-data; name="kind"\r\n\r\npackage\r\n--XyZ--\r\nepilogue',
    );
    expect(boundaryOf('multipart/form-data; charset=utf-8; boundary="XyZ"')).toBe('XyZ');
    expect((await read(body, 'XyZ', [5, 5, 5])).fields).toEqual({ kind: 'package' });
  });

  it('refuses a body that breaks off or is not multipart', async () => {
    await expect(
      read(Buffer.from('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nhalf'), 'b', []),
    ).rejects.toBeInstanceOf(MultipartError);
    await expect(read(Buffer.from('--b\r\nX-Other: 1\r\n\r\nv\r\n--b--'), 'b', [])).rejects.toThrow(
      /Content-Disposition/,
    );
    expect(boundaryOf('application/json')).toBeNull();
    expect(boundaryOf(undefined)).toBeNull();
  });
});

describe('where the backend says it stored a file', () => {
  it('is kept relative to /plate/, an address whole, and never a path that climbs out', () => {
    expect(storedPath({ path: '/plate/uploads/a/b.png' })).toEqual({ path: 'uploads/a/b.png', url: null });
    expect(storedPath({ path: 'uploads/a/b.png', url: 'https://cdn.example.com/b.png' })).toEqual({
      path: 'uploads/a/b.png',
      url: 'https://cdn.example.com/b.png',
    });
    expect(storedPath('avatars/x.png')).toEqual({ path: 'avatars/x.png', url: null });
    expect(storedPath({ path: 'https://files.example.com/x.apk' })).toEqual({
      path: 'https://files.example.com/x.apk',
      url: 'https://files.example.com/x.apk',
    });
    expect(storedPath({ path: 'uploads/../../etc/passwd' })).toBeNull();
    expect(storedPath({ path: '' })).toBeNull();
    expect(storedPath({ url: 'https://x' })).toBeNull();
    expect(storedPath(null)).toBeNull();
  });
});
