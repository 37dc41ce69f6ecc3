import type { CodecKey } from './codec.js';

/**
 * The sandbox backend's response key. Public on purpose: it only protects simulated data, and the
 * gateway uses the same text as its default RESPONSE_AES_KEY in sandbox mode so that decoding runs
 * on every start. 32 characters: AES-256.
 */
export const SANDBOX_AES_KEY_TEXT = 'sandbox-chat-admin-aes256-key-01';

/** CBC with the gateway's default IV (16 zero bytes). */
export function sandboxCodecKey(): CodecKey {
  return {
    key: Buffer.from(SANDBOX_AES_KEY_TEXT, 'utf8'),
    iv: Buffer.alloc(16),
    mode: 'cbc',
  };
}
