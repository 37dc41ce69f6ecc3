import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { createCipheriv } from 'node:crypto';
import {
  BodyDecoder,
  DecodeError,
  decodeBody,
  detectCompression,
  encodeBody,
  parseEnableMode,
  type CodecKey,
} from '../../server/codec/index.js';
import { checkJson } from '../../server/codec/body.js';

const key256: CodecKey = { key: Buffer.from('0123456789abcdef0123456789abcdef'), iv: Buffer.alloc(16), mode: 'cbc' };
const json = JSON.stringify({ code: 200, msg: 'ok', data: { list: [1, 2, 3], name: '管理员' } });
const limit = { maxBytes: 1024 * 1024 };

async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DecodeError);
    return (error as DecodeError).reason;
  }
  throw new Error('expected a DecodeError');
}

describe('codec', () => {
  it.each([16, 24, 32])('round-trips mode 1 with a %i-byte key in CBC and ECB', async (length) => {
    for (const mode of ['cbc', 'ecb'] as const) {
      const key: CodecKey = { key: Buffer.alloc(length, 7), iv: Buffer.alloc(16, 1), mode };
      const body = Buffer.from(encodeBody(json, 1, key));
      expect((await decodeBody(body, 1, key, limit)).toString()).toBe(json);
    }
  });

  it.each(['gzip', 'zlib', 'deflate-raw'] as const)('round-trips mode 3 compressed with %s', async (format) => {
    const body = Buffer.from(encodeBody(json, 3, key256, format));
    expect((await decodeBody(body, 3, key256, limit)).toString()).toBe(json);
  });

  it('tells the compression formats apart by their first bytes', () => {
    expect(detectCompression(gzipSync('{}'))).toBe('gzip');
    expect(detectCompression(Buffer.from([0x78, 0x9c, 0]))).toBe('zlib');
    expect(detectCompression(Buffer.from([0x78, 0x00]))).toBe('deflate-raw');
  });

  it('tolerates surrounding white space and JSON string quotes', async () => {
    const text = encodeBody(json, 1, key256);
    expect((await decodeBody(Buffer.from(`\n  "${text}"  \r\n`), 1, key256, limit)).toString()).toBe(json);
  });

  it('decodes the same however the body is cut into chunks', async () => {
    const big = JSON.stringify({ code: 200, data: Array.from({ length: 500 }, (_, i) => ({ i, name: `用户${i}` })) });
    for (const mode of [1, 3] as const) {
      const text = Buffer.from(`  "${encodeBody(big, mode, key256)}"\n`);
      for (const size of [1, 3, 5, 7, 64, 1000]) {
        const decoder = new BodyDecoder(mode, key256, limit);
        for (let at = 0; at < text.length; at += size) decoder.push(text.subarray(at, at + size));
        expect((await decoder.end()).toString()).toBe(big);
      }
    }
  });

  it('refuses text after the closing quote or padding', async () => {
    const text = encodeBody(json, 1, key256);
    expect(await reason(decodeBody(Buffer.from(`"${text}"x`), 1, key256, limit))).toBe('bad_base64');
    expect(await reason(decodeBody(Buffer.from(`${text}QUJD`), 1, key256, limit))).not.toBeNull();
    expect(await reason(decodeBody(Buffer.from(`"${text}`), 1, key256, limit))).toBe('bad_base64');
    expect(await reason(decodeBody(Buffer.from('   '), 1, key256, limit))).toBe('bad_base64');
  });

  it('reads the w-enable-mode header', () => {
    expect(parseEnableMode('1')).toBe(1);
    expect(parseEnableMode(' 3 ')).toBe(3);
    expect(parseEnableMode('2')).toBeNull();
    expect(parseEnableMode(undefined)).toBeNull();
  });

  it('refuses truncated base64', async () => {
    const text = encodeBody(json, 1, key256);
    expect(await reason(decodeBody(Buffer.from(text.slice(0, -3)), 1, key256, limit))).toBe('bad_base64');
  });

  it('refuses base64 with characters outside the alphabet', async () => {
    expect(await reason(decodeBody(Buffer.from('ab$d'.repeat(8)), 1, key256, limit))).toBe('bad_base64');
  });

  it('refuses a ciphertext that is not whole blocks', async () => {
    expect(await reason(decodeBody(Buffer.from(Buffer.alloc(20).toString('base64')), 1, key256, limit))).toBe(
      'bad_ciphertext',
    );
  });

  it('refuses a wrong key as a padding error', async () => {
    const body = Buffer.from(encodeBody(json, 1, key256));
    const wrong: CodecKey = { ...key256, key: Buffer.alloc(32, 9) };
    expect(await reason(decodeBody(body, 1, wrong, limit))).toBe('bad_padding');
  });

  it('refuses a plain text that is not JSON', async () => {
    const body = Buffer.from(encodeBody('<html>oops</html>', 1, key256));
    expect(await reason(decodeBody(body, 1, key256, limit))).toBe('not_json');
    const broken = Buffer.from(encodeBody('{"code": 200,', 1, key256));
    expect(await reason(decodeBody(broken, 1, key256, limit))).toBe('not_json');
  });

  it('refuses a mode 3 body whose plain text is not compressed', async () => {
    const body = Buffer.from(encodeBody(json, 1, key256));
    expect(await reason(decodeBody(body, 3, key256, limit))).toBe('bad_compression');
  });

  it('stops a compression bomb at the cap instead of inflating it', async () => {
    // 64 MiB of spaces inside a JSON string compresses to about 64 KiB.
    const bomb = gzipSync(
      Buffer.concat([Buffer.from('{"a":"'), Buffer.alloc(64 * 1024 * 1024, 0x20), Buffer.from('"}')]),
    );
    const cipher = createCipheriv('aes-256-cbc', key256.key, key256.iv);
    const body = Buffer.from(Buffer.concat([cipher.update(bomb), cipher.final()]).toString('base64'));
    expect(await reason(decodeBody(body, 3, key256, { maxBytes: 1024 * 1024 }))).toBe('too_large');
  });

  it('inflates a small body whose output outgrows the synchronous share, and caps it', async () => {
    // About 2 MiB of JSON that compresses to a few KiB: past the 1 MiB inflated on the event loop.
    const big = JSON.stringify({ data: ' '.repeat(2 * 1024 * 1024) });
    const body = Buffer.from(encodeBody(big, 3, key256, 'deflate-raw'));
    expect(body.length).toBeLessThan(64 * 1024);
    expect((await decodeBody(body, 3, key256, { maxBytes: 4 * 1024 * 1024 })).length).toBe(big.length);
    expect(await reason(decodeBody(body, 3, key256, { maxBytes: 1024 * 1024 }))).toBe('too_large');
    expect(await reason(decodeBody(body, 3, key256, { maxBytes: 1536 * 1024 }))).toBe('too_large');
  });

  it('refuses a mode 1 body past the cap', async () => {
    const big = JSON.stringify({ data: 'x'.repeat(4096) });
    const body = Buffer.from(encodeBody(big, 1, key256));
    expect(await reason(decodeBody(body, 1, key256, { maxBytes: 1024 }))).toBe('too_large');
  });

  it('says so when no key is configured', async () => {
    expect(await reason(decodeBody(Buffer.from('AAAA'), 1, null, limit))).toBe('no_key');
  });
});

describe('the decoded body check', () => {
  const bytes = (text: string) => Buffer.from(text, 'utf8');
  const large = (open: string, close: string) => bytes(`${open}${' '.repeat(17 * 1024)}${close}`);

  it('passes JSON objects and arrays on, without a BOM and as they were otherwise', () => {
    expect(checkJson(bytes('{"a":1}')).toString()).toBe('{"a":1}');
    expect(checkJson(bytes('\ufeff[1,2]')).toString()).toBe('[1,2]');
    // Surrounding white space is allowed, and left in what passes on.
    expect(checkJson(bytes(' \r\n\t{"a":[]}\n')).toString()).toBe(' \r\n\t{"a":[]}\n');
    // Two bytes of a BOM are not one: the body is not JSON.
    expect(() => checkJson(Buffer.concat([Buffer.from([0xef, 0xbb]), bytes('{}')]))).toThrow(DecodeError);
  });

  it('refuses what is empty, blank, a bare value, or unbalanced, whatever its size', () => {
    for (const text of ['', '   \n', '"text"', '42', 'null', '{"a":1', '[1,2}', '{1]', 'x{}', '{}x']) {
      expect(() => checkJson(bytes(text)), JSON.stringify(text)).toThrow(DecodeError);
    }
    expect(() => checkJson(large('{', ']'))).toThrow(DecodeError);
    expect(() => checkJson(large('[', '}'))).toThrow(DecodeError);
  });

  it('parses a small body fully, and checks a large one for its shape and UTF-8 only', () => {
    expect(() => checkJson(bytes('{"a":}'))).toThrow(DecodeError);
    // Past the full-parse limit a body of the right shape in valid UTF-8 passes unparsed...
    expect(checkJson(large('{', '}')).length).toBe(17 * 1024 + 2);
    expect(checkJson(large('[', ']')).length).toBe(17 * 1024 + 2);
    // ...and one that is not UTF-8 is refused.
    const broken = large('{', '}');
    broken[100] = 0xff;
    expect(() => checkJson(broken)).toThrow(DecodeError);
  });
});
