import { afterAll, describe, expect, it } from 'vitest';
import { GATEWAY_PATHS } from '../../server/contract/index.js';
import { hasProgram, skipWithout } from '../support/ci.js';
import { freePort } from '../support/ports.js';
import { freshCall, removeTempDirs, tempDir, waitHealthy, type NodeProcess } from '../support/processes.js';
import { RedisServer } from '../support/redis-server.js';
import { selfSignedCertificate } from '../support/tls.js';
import { gatewayProcess, startHeldBackend } from './support/held-backend.js';

/**
 * REDIS_URL with TLS and a password: a rediss:// URL to a redis-server that speaks TLS only and
 * requires a password, its certificate trusted through NODE_EXTRA_CA_CERTS as an operator's own
 * CA would be. The shipped bundle connects, shares its error log there, and names neither the
 * password nor the address in its log or /readyz.
 */

const PASSWORD = 'tls-redis-password-hush';
const missing = [
  ...(hasProgram('redis-server') ? [] : ['redis-server']),
  ...(hasProgram('openssl') ? [] : ['openssl']),
];
const processes: NodeProcess[] = [];
const closers: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const gateway of processes.splice(0)) await gateway.stop();
  for (const close of closers.splice(0).reverse()) await close();
  removeTempDirs();
});

describe.skipIf(skipWithout(missing, 'the Redis over TLS test'))(
  'REDIS_URL over TLS with a password',
  { timeout: 120_000 },
  () => {
    it('connects with rediss://, shares the error log, never shows the password, and shuts down cleanly', async () => {
      const folder = tempDir('redis-tls-cert-');
      const { cert: certFile, key: keyFile } = selfSignedCertificate(folder, 'redis');
      const redis = await RedisServer.start({ password: PASSWORD, tls: { certFile, keyFile } });
      closers.push(() => redis.close());
      expect(redis.url.startsWith('rediss://')).toBe(true);
      const held = await startHeldBackend();
      closers.push(() => held.backend.close());

      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const gateway = gatewayProcess({
        CHAT_BACKEND_URL: held.backend.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: tempDir('redis-tls-data-'),
        UI_DIR: tempDir('redis-tls-ui-'),
        REDIS_URL: redis.url,
        NODE_EXTRA_CA_CERTS: certFile,
      });
      processes.push(gateway);
      await waitHealthy(gateway, origin);
      await gateway.waitFor(
        () => gateway.logLines().some((l) => String(l.msg).startsWith('Redis is ready')),
        'the connection to Redis over TLS',
      );

      const posted = await freshCall(origin, GATEWAY_PATHS.errorLog, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ message: 'over-tls', url: '/ops' }),
      });
      expect(posted.status, posted.body).toBe(200);
      const ready = await freshCall(origin, GATEWAY_PATHS.readyz);
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.body)).toEqual({
        status: 'ready',
        details: { redis: 'connected', errorLog: 'shared in Redis', auditTrail: 'shared in Redis' },
      });
      expect(ready.body).not.toContain(PASSWORD);
      expect(ready.body).not.toContain(String(redis.port));

      // The effective-configuration line shows the URL with its password masked.
      const configLine = gateway.logLines().find((l) => l.msg === 'effective configuration');
      expect(JSON.stringify(configLine)).toContain(`rediss://:***@localhost:${redis.port}`);
      expect(gateway.stdout + gateway.stderr).not.toContain(PASSWORD);

      // The Redis connection never holds a graceful shutdown back.
      gateway.signal('SIGTERM');
      expect(await gateway.exited).toEqual({ code: 0, signal: null });
    });
  },
);
