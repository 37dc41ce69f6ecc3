import { createCipheriv, createDecipheriv } from 'node:crypto';
import { DecodeError } from './errors.js';

export interface CodecKey {
  /** 16, 24 or 32 bytes: AES-128, -192 or -256. */
  key: Buffer;
  /** 16 bytes; ignored in ECB. */
  iv: Buffer;
  mode: 'cbc' | 'ecb';
}

function algorithm(key: CodecKey): string {
  return `aes-${key.key.length * 8}-${key.mode}`;
}

export function aesEncrypt(plain: Buffer, key: CodecKey): Buffer {
  const cipher = createCipheriv(algorithm(key), key.key, key.mode === 'ecb' ? null : key.iv);
  return Buffer.concat([cipher.update(plain), cipher.final()]);
}

export function aesDecrypt(cipherText: Buffer, key: CodecKey): Buffer {
  if (cipherText.length === 0 || cipherText.length % 16 !== 0) throw new DecodeError('bad_ciphertext');
  const decipher = createDecipheriv(algorithm(key), key.key, key.mode === 'ecb' ? null : key.iv);
  const head = decipher.update(cipherText);
  let tail: Buffer;
  try {
    tail = decipher.final();
  } catch {
    throw new DecodeError('bad_padding');
  }
  return tail.length === 0 ? head : Buffer.concat([head, tail]);
}
