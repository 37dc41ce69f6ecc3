import type { CodecKey } from '../../../server/codec/index.js';

/** The decode scenario's key and IV; the gateway child gets the same through its environment. */
export const BENCH_KEY_TEXT = 'bench-decode-aes256-key-32-bytes';
export const BENCH_IV = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
export const BENCH_KEY_ENV = {
  RESPONSE_AES_KEY: BENCH_KEY_TEXT,
  RESPONSE_AES_IV: `base64:${BENCH_IV.toString('base64')}`,
  RESPONSE_AES_MODE: 'cbc',
};

export function benchKey(): CodecKey {
  return { key: Buffer.from(BENCH_KEY_TEXT, 'utf8'), iv: BENCH_IV, mode: 'cbc' };
}

const WORDS = [
  'alpha',
  'withdrawal',
  'pending',
  'group',
  'member',
  'Zhang',
  'Li',
  'Wang',
  'shanghai',
  'review',
  'approved',
  'wallet',
  'bank',
  'card',
  'note',
  'online',
];

/** mulberry32: a small seeded generator, so every process builds the very same bodies. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A list answer in the backend's envelope of about `size` bytes, with the mix of numbers, names
 * and random text of a real finance list, so that it compresses like one (several times, not a
 * thousand times).
 */
export function makeJsonBody(size: number, seed = 7): Buffer {
  const random = prng(seed ^ size);
  const head = '{"code":200,"msg":"ok","data":{"list":[';
  const tail = ']}}';
  const parts: string[] = [head];
  let length = head.length + tail.length;
  for (let id = 1; ; id++) {
    const word = () => WORDS[Math.floor(random() * WORDS.length)]!;
    const token = Math.floor(random() * 2 ** 52).toString(36);
    const record = `${id > 1 ? ',' : ''}{"id":${id},"userId":${Math.floor(random() * 1e7)},"name":"${word()} ${word()}","amount":${(random() * 10000).toFixed(2)},"status":"${word()}","bankCard":"${token}","remark":"${word()} ${word()} ${word()}","createTime":${1_717_000_000_000 + id * 997}}`;
    if (length + record.length > size && id > 1) break;
    parts.push(record);
    length += record.length;
    if (length >= size) break;
  }
  // Pad to the exact size with white space inside the envelope, which JSON allows.
  const pad = Math.max(0, size - length);
  parts.push(' '.repeat(pad), tail);
  return Buffer.from(parts.join(''), 'utf8');
}
