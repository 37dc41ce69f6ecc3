import fp from 'fastify-plugin';
import { ENABLE_MODE_HEADER } from '../contract/index.js';
import { DecodeError, decodeBody, parseEnableMode, type CodecKey } from '../codec/index.js';
import { GatewayError } from '../errors.js';
import type { RawAnswer } from '../lib/upstream.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The JSON bytes of an answer: the body itself, or its decoding when w-enable-mode is 1 or 3. */
    decodeAnswer(answer: RawAnswer, path: string): Promise<Buffer>;
  }
}

/**
 * Decoding of w-enable-mode bodies, shared by the proxy and the gateway's own calls. Failures
 * become one catalogue error and one log line naming the path and reason, never the body.
 */
export default fp(
  async (app) => {
    const { key: keyBytes, iv, mode } = app.config.aes;
    const key: CodecKey | null = keyBytes ? { key: keyBytes, iv, mode } : null;
    const maxBytes = app.config.decodeMaxBytes;

    async function decodeAnswer(answer: RawAnswer, path: string): Promise<Buffer> {
      const encodedMode = parseEnableMode(answer.headers[ENABLE_MODE_HEADER]);
      if (encodedMode === null) return answer.body;
      try {
        return await decodeBody(answer.body, encodedMode, key, { maxBytes });
      } catch (error) {
        if (!(error instanceof DecodeError)) throw error;
        app.metrics.decodeFailures.inc({ reason: error.reason });
        app.log.warn({ path: path.split('?')[0], mode: encodedMode, reason: error.reason }, 'could not decode an encoded answer');
        throw new GatewayError(error.reason === 'too_large' ? 'DECODE_TOO_LARGE' : 'DECODE_FAILED', error.message);
      }
    }

    app.decorate('decodeAnswer', decodeAnswer);
    app.upstream.decoder = decodeAnswer;
  },
  { name: 'decode' },
);
