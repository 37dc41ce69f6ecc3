import type { CodecKey } from '../codec/index.js';
import { parseKeyText } from '../config.js';

/**
 * The sandbox backend's response key. Public on purpose: it only protects simulated data, and the
 * gateway uses the same text as its default RESPONSE_AES_KEY in sandbox mode so that decoding runs
 * on every start. 32 characters: AES-256.
 */
export const SANDBOX_AES_KEY_TEXT = 'sandbox-chat-admin-aes256-key-01';

/** CBC with the gateway's default IV (16 zero bytes). */
export function sandboxCodecKey(): CodecKey {
  return {
    key: parseKeyText('SANDBOX_AES_KEY_TEXT', SANDBOX_AES_KEY_TEXT, [32]),
    iv: Buffer.alloc(16),
    mode: 'cbc',
  };
}
