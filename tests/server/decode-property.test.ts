import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aesEncrypt } from '../../server/codec/aes.js';
import { compress } from '../../server/codec/compression.js';
import {
  DecodeError,
  decodeBody,
  encodeBody,
  type CodecKey,
  type CompressionFormat,
  type EncodedMode,
} from '../../server/codec/index.js';

/*
 * Property tests of the gateway's decoder (issue 7, item 5). Whatever arrives from the backend,
 * decodeBody resolves to JSON bytes no larger than its cap or rejects with a DecodeError: a
 * TypeError, a zlib error or a RangeError escaping would be a 500 or a crash in the gateway.
 */

const FORMATS: readonly CompressionFormat[] = ['gzip', 'zlib', 'deflate-raw'];

const keyArb: fc.Arbitrary<CodecKey> = fc
  .record({
    size: fc.constantFrom(16, 24, 32),
    mode: fc.constantFrom<'cbc' | 'ecb'>('cbc', 'ecb'),
    seed: fc.uint8Array({ minLength: 48, maxLength: 48 }),
  })
  .map(({ size, mode, seed }) => ({
    key: Buffer.from(seed.subarray(0, size)),
    iv: Buffer.from(seed.subarray(32, 48)),
    mode,
  }));

const modeArb = fc.constantFrom<EncodedMode>(1, 3);
const formatArb = fc.constantFrom(...FORMATS);

/** JSON the backend could send: the decoder only accepts an object or array at the top. */
const jsonArb = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 }),
  fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 12 }),
);

/** Resolves to what decodeBody produced, or the DecodeError it threw; anything else fails the test. */
async function decodeOutcome(
  body: Buffer,
  mode: EncodedMode,
  key: CodecKey | null,
  maxBytes: number,
): Promise<{ ok: true; json: Buffer } | { ok: false; error: DecodeError }> {
  try {
    const json = await decodeBody(body, mode, key, { maxBytes });
    return { ok: true, json };
  } catch (error) {
    if (!(error instanceof DecodeError)) {
      throw new Error(`decodeBody threw something other than a DecodeError: ${String(error)}`, { cause: error });
    }
    return { ok: false, error };
  }
}

/** A successful decoding is JSON within the cap; a small one is parsed in full by the decoder. */
function expectValidResult(json: Buffer, maxBytes: number): void {
  expect(Buffer.isBuffer(json)).toBe(true);
  expect(json.length).toBeLessThanOrEqual(maxBytes);
  expect(() => JSON.parse(json.toString('utf8'))).not.toThrow();
}

type Mutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; value: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; length: number };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 24 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 24 }) }),
);

function mutate(data: Buffer, mutations: readonly Mutation[]): Buffer {
  let out = Buffer.from(data);
  for (const m of mutations) {
    const at = out.length === 0 ? 0 : m.at % (out.length + (m.kind === 'insert' ? 1 : 0));
    switch (m.kind) {
      case 'flip':
        if (out.length > 0) out[at] = out[at]! ^ (1 << m.bit);
        break;
      case 'set':
        if (out.length > 0) out[at] = m.value;
        break;
      case 'truncate':
        out = out.subarray(0, at);
        break;
      case 'insert':
        out = Buffer.concat([out.subarray(0, at), Buffer.from(m.bytes), out.subarray(at)]);
        break;
      case 'delete':
        out = Buffer.concat([out.subarray(0, at), out.subarray(at + m.length)]);
        break;
    }
  }
  return out;
}

/** The layer a mutation hits: each one drives a different stage of the decoder past its checks. */
type Layer = 'text' | 'ciphertext' | 'compressed' | 'plain';

/** Encodes JSON like the backend, applying the mutations at the chosen layer. */
function encodeMutated(
  plain: Buffer,
  mode: EncodedMode,
  key: CodecKey,
  format: CompressionFormat,
  layer: Layer,
  mutations: readonly Mutation[],
): Buffer {
  const plainBytes = layer === 'plain' ? mutate(plain, mutations) : plain;
  let payload = mode === 3 ? compress(plainBytes, format) : plainBytes;
  if (layer === 'compressed') payload = mutate(payload, mutations);
  let cipherText = aesEncrypt(payload, key);
  if (layer === 'ciphertext') cipherText = mutate(cipherText, mutations);
  const text = Buffer.from(cipherText.toString('base64'), 'latin1');
  return layer === 'text' ? mutate(text, mutations) : text;
}

describe('decodeBody properties', () => {
  it('turns any random body into JSON or a DecodeError', async () => {
    const bodyArb = fc.oneof(
      fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)),
      // Base64-looking text gets past the first check and reaches AES and the inflater.
      fc.base64String({ maxLength: 512 }).map((text) => Buffer.from(text, 'latin1')),
      fc.string({ maxLength: 256 }).map((text) => Buffer.from(`"${text}"`, 'utf8')),
    );
    await fc.assert(
      fc.asyncProperty(
        bodyArb,
        modeArb,
        fc.option(keyArb, { freq: 10 }),
        fc.integer({ min: 1, max: 4096 }),
        async (body, mode, key, maxBytes) => {
          const outcome = await decodeOutcome(body, mode, key, maxBytes);
          if (outcome.ok) expectValidResult(outcome.json, maxBytes);
          else if (key === null) expect(outcome.error.reason).toBe('no_key');
        },
      ),
      { numRuns: 4000 },
    );
  });

  it('decodes what encodeBody made back to the same JSON text', async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonArb,
        modeArb,
        keyArb,
        formatArb,
        fc.constantFrom('', ' ', '\n', '"'),
        async (value, mode, key, format, wrap) => {
          const text = JSON.stringify(value);
          const encoded = encodeBody(text, mode, key, format);
          // The backend may quote the base64 text or surround it with white space.
          const body = Buffer.from(wrap === '"' ? `"${encoded}"` : `${wrap}${encoded}${wrap}`, 'latin1');
          const json = await decodeBody(body, mode, key, { maxBytes: 1024 * 1024 });
          expect(json.toString('utf8')).toBe(text);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('survives mutations at every layer without exceeding maxBytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonArb,
        modeArb,
        keyArb,
        formatArb,
        fc.constantFrom<Layer>('text', 'ciphertext', 'compressed', 'plain'),
        fc.array(mutationArb, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 2, max: 2048 }),
        async (value, mode, key, format, layer, mutations, maxBytes) => {
          const plain = Buffer.from(JSON.stringify(value), 'utf8');
          const body = encodeMutated(plain, mode, key, format, layer, mutations);
          const outcome = await decodeOutcome(body, mode, key, maxBytes);
          if (outcome.ok) expectValidResult(outcome.json, maxBytes);
        },
      ),
      { numRuns: 4000 },
    );
  });

  it('answers a body encoded with another key, IV or mode with a DecodeError or JSON, never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonArb,
        modeArb,
        keyArb,
        keyArb,
        formatArb,
        async (value, mode, encodeKey, decodeKey, format) => {
          fc.pre(
            !encodeKey.key.equals(decodeKey.key) ||
              !encodeKey.iv.equals(decodeKey.iv) ||
              encodeKey.mode !== decodeKey.mode,
          );
          const body = Buffer.from(encodeBody(JSON.stringify(value), mode, encodeKey, format), 'latin1');
          const outcome = await decodeOutcome(body, mode, decodeKey, 1024 * 1024);
          if (outcome.ok) expectValidResult(outcome.json, 1024 * 1024);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('refuses a compression bomb at the cap instead of inflating it', async () => {
    const key: CodecKey = { key: randomBytes(32), iv: randomBytes(16), mode: 'cbc' };
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 64 * 1024, max: 4 * 1024 * 1024 }),
        formatArb,
        fc.integer({ min: 1024, max: 32 * 1024 }),
        async (plainBytes, format, maxBytes) => {
          // Highly compressible JSON: megabytes of plain text from a few kilobytes on the wire.
          const plain = Buffer.alloc(plainBytes, 0x30);
          plain[0] = 0x5b;
          plain[plainBytes - 1] = 0x5d;
          const body = Buffer.from(aesEncrypt(compress(plain, format), key).toString('base64'), 'latin1');
          const outcome = await decodeOutcome(body, 3, key, maxBytes);
          expect(outcome.ok).toBe(false);
          if (!outcome.ok) expect(outcome.error.reason).toBe('too_large');
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a mode 1 body whose plain text is past the cap', async () => {
    await fc.assert(
      fc.asyncProperty(jsonArb, keyArb, fc.integer({ min: 1, max: 64 }), async (value, key, slack) => {
        const text = JSON.stringify(value);
        const maxBytes = Math.max(0, Buffer.byteLength(text) - slack);
        const body = Buffer.from(encodeBody(text, 1, key), 'latin1');
        const outcome = await decodeOutcome(body, 1, key, maxBytes);
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) expect(outcome.error.reason).toBe('too_large');
      }),
      { numRuns: 1000 },
    );
  });
});
