import { createCipheriv, createDecipheriv, type Decipher } from 'node:crypto';
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

/** Decryption fed piece by piece, so the cipher text need never be whole in memory. */
export class AesStream {
  private readonly decipher: Decipher;
  private cipherBytes = 0;

  constructor(key: CodecKey) {
    this.decipher = createDecipheriv(algorithm(key), key.key, key.mode === 'ecb' ? null : key.iv);
  }

  push(cipherText: Buffer): Buffer {
    this.cipherBytes += cipherText.length;
    return this.decipher.update(cipherText);
  }

  end(): Buffer {
    if (this.cipherBytes === 0 || this.cipherBytes % 16 !== 0) throw new DecodeError('bad_ciphertext');
    try {
      return this.decipher.final();
    } catch {
      throw new DecodeError('bad_padding');
    }
  }
}

export function aesDecrypt(cipherText: Buffer, key: CodecKey): Buffer {
  const stream = new AesStream(key);
  const head = stream.push(cipherText);
  const tail = stream.end();
  return tail.length === 0 ? head : Buffer.concat([head, tail]);
}
