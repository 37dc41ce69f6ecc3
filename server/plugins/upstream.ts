import fp from 'fastify-plugin';
import { ENABLE_MODE_HEADER } from '../contract/index.js';
import { BodyDecoder, DecodeError, parseEnableMode, type CodecKey, type EncodedMode } from '../codec/index.js';
import { GatewayError } from '../errors.js';
import { Upstream, type RawAnswer } from '../lib/upstream.js';
import { backendAuthOf } from '../backend-map/auth.js';
import { serviceUrls } from '../backend-map/services.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The connection to the chat backend, shared by the proxy and the gateway's own calls. */
    upstream: Upstream;
    /** The connection to one of the backend map's services (`service`); none named: `upstream`. */
    upstreamFor(service?: string): Upstream;
    /** The JSON bytes of an answer: the body itself, or its decoding when w-enable-mode is 1 or 3. */
    decodeAnswer(answer: RawAnswer, path: string): Promise<Buffer>;
    /** The same for a body still arriving: decoded chunk by chunk, never buffered as text. */
    decodeAnswerStream(
      body: AsyncIterable<Buffer> | Iterable<Buffer>,
      mode: EncodedMode,
      path: string,
    ): Promise<Buffer>;
  }
}

/**
 * The chat backend: its connection pool, and the decoding of w-enable-mode bodies, shared by the
 * proxy and the gateway's own calls. Decoding failures become one catalogue error and one log line
 * naming the path and reason, never the body.
 */
export default fp(
  async (app) => {
    const { key: keyBytes, iv, mode } = app.config.aes;
    const key: CodecKey | null = keyBytes ? { key: keyBytes, iv, mode } : null;
    const maxBytes = app.config.decodeMaxBytes;

    // Base64 grows the body by a third and AES padding adds at most a block: past this, the
    // answer cannot decode within the cap, so reading stops early.
    const encodedLimit = Math.ceil((maxBytes + 16) / 3) * 4 + 1024;

    function failure(error: unknown, mode: EncodedMode, path: string): never {
      if (!(error instanceof DecodeError)) throw error;
      app.metrics.decodeFailures.inc({ reason: error.reason });
      app.log.warn({ path: path.split('?')[0], mode, reason: error.reason }, 'could not decode an encoded answer');
      throw new GatewayError(error.reason === 'too_large' ? 'DECODE_TOO_LARGE' : 'DECODE_FAILED', error.message);
    }

    async function decodeAnswerStream(
      body: AsyncIterable<Buffer> | Iterable<Buffer>,
      mode: EncodedMode,
      path: string,
    ): Promise<Buffer> {
      try {
        const decoder = new BodyDecoder(mode, key, { maxBytes });
        let received = 0;
        for await (const chunk of body) {
          received += chunk.length;
          if (received > encodedLimit) throw new DecodeError('too_large');
          decoder.push(chunk);
        }
        return await decoder.end();
      } catch (error) {
        return failure(error, mode, path);
      }
    }

    async function decodeAnswer(answer: RawAnswer, path: string): Promise<Buffer> {
      const encodedMode = parseEnableMode(answer.headers[ENABLE_MODE_HEADER]);
      if (encodedMode === null) return answer.body;
      return decodeAnswerStream([answer.body], encodedMode, path);
    }

    // The map's auth reaches every call to the backend through this one connection: the proxy,
    // the map's calls, permission look-ups, logout and withdrawal polls alike.
    const auth = backendAuthOf(app.config.backendMap?.map);

    app.decorate('decodeAnswer', decodeAnswer);
    app.decorate('decodeAnswerStream', decodeAnswerStream);
    // An unset URL is the sandbox's to fill in; a gateway built without one answers 502.
    const backendUrl = app.config.chatBackendUrl ?? 'http://127.0.0.1:1';
    const connect = (baseUrl: string) =>
      new Upstream({
        baseUrl,
        timeoutMs: app.config.upstreamTimeoutMs,
        tlsInsecure: app.config.upstreamTlsInsecure,
        maxAnswerBytes: maxBytes,
        decoder: decodeAnswer,
        auth,
      });
    const upstream = connect(backendUrl);
    // Each service of the map has its own pool; one at the backend's own address shares its pool.
    const services = new Map<string, Upstream>();
    for (const [name, url] of Object.entries(serviceUrls(app.config.backendMap?.services ?? {}, backendUrl))) {
      services.set(name, url === backendUrl ? upstream : connect(url));
    }
    app.decorate('upstream', upstream);
    app.decorate('upstreamFor', (service?: string) =>
      service === undefined ? upstream : (services.get(service) ?? upstream),
    );
    app.addHook('onClose', async () => {
      await Promise.all([...new Set([upstream, ...services.values()])].map((u) => u.close()));
    });
  },
  { name: 'upstream' },
);
