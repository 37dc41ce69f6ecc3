import { connect, type Socket } from 'node:net';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { rigPerTest } from './support/rig.js';

/**
 * 2,000 idle keep-alive sockets from one address used to take all of MAX_CONNECTIONS: each stayed
 * open 72 s after its last answer, and /healthz from anywhere else got no answer. Now one address
 * holds at most MAX_CONNECTIONS_PER_IP sockets (the proxies TRUST_PROXY trusts excepted), and a
 * kept-alive socket is closed after KEEP_ALIVE_TIMEOUT_MS of idleness.
 */

const rig = rigPerTest();
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

interface Held {
  socket: Socket;
  /** 'answered' once a whole 200 came back on the still open socket; 'closed' if the server closed it first. */
  outcome: Promise<'answered' | 'closed'>;
  closed: Promise<void>;
}

/** A keep-alive socket from `localAddress` that asks for /healthz once and then sits idle. */
function holdSocket(port: number, localAddress: string): Held {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  sockets.push(socket);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const outcome = new Promise<'answered' | 'closed'>((resolve) => {
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (/^HTTP\/1\.1 200 /.test(received) && received.includes('"status":"ok"')) resolve('answered');
    });
    socket.once('close', () => resolve('closed'));
  });
  socket.once('connect', () =>
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n'),
  );
  return { socket, outcome, closed };
}

/** One GET from `localAddress` on a connection of its own; the status, or 0 when the socket closed without one. */
function probe(port: number, path: string, localAddress: string): Promise<number> {
  return new Promise((resolve) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, localAddress, agent: false, headers: { connection: 'close' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end();
  });
}

async function outcomes(held: Held[]): Promise<{ answered: number; closed: number }> {
  const all = await Promise.all(held.map((h) => h.outcome));
  return { answered: all.filter((o) => o === 'answered').length, closed: all.filter((o) => o === 'closed').length };
}

describe('one address holding its cap of sockets', { timeout: 30_000 }, () => {
  it('closes its sockets past MAX_CONNECTIONS_PER_IP, while another address and the probes are served', async () => {
    // Eight sockets would fill MAX_CONNECTIONS; one address may hold four of them.
    const r = await rig({ MAX_CONNECTIONS: '8', MAX_CONNECTIONS_PER_IP: '4', KEEP_ALIVE_TIMEOUT_MS: '60000' });
    const held = Array.from({ length: 8 }, () => holdSocket(r.port, '127.0.0.1'));
    expect(await outcomes(held)).toEqual({ answered: 4, closed: 4 });
    const still = held.filter((h) => !h.socket.destroyed);
    expect(still).toHaveLength(4);

    for (const path of ['/healthz', '/readyz', '/healthz', '/readyz'])
      expect(await probe(r.port, path, '127.0.0.2'), path).toBe(200);
    // Another address has a cap of its own, the first one's held sockets do not count against it.
    const other = Array.from({ length: 4 }, () => holdSocket(r.port, '127.0.0.3'));
    expect(await outcomes(other)).toEqual({ answered: 4, closed: 0 });
    expect((await r.app.metrics.limited.get()).values).toContainEqual(
      expect.objectContaining({ labels: { limit: 'connections_per_address' }, value: 4 }),
    );

    // Once the first address lets go, it gets its sockets back.
    for (const h of still) h.socket.destroy();
    await Promise.all(still.map((h) => h.closed));
    await expect.poll(() => probe(r.port, '/healthz', '127.0.0.1')).toBe(200);
  });

  it('does not count a proxy TRUST_PROXY trusts: every browser behind it shares its address', async () => {
    const r = await rig({ MAX_CONNECTIONS_PER_IP: '2', KEEP_ALIVE_TIMEOUT_MS: '60000', TRUST_PROXY: '127.0.0.1' });
    const viaProxy = Array.from({ length: 5 }, () => holdSocket(r.port, '127.0.0.1'));
    expect(await outcomes(viaProxy)).toEqual({ answered: 5, closed: 0 });
    const direct = Array.from({ length: 4 }, () => holdSocket(r.port, '127.0.0.4'));
    expect(await outcomes(direct)).toEqual({ answered: 2, closed: 2 });
  });
});

describe('idle keep-alive sockets', { timeout: 30_000 }, () => {
  it('are closed by the gateway after KEEP_ALIVE_TIMEOUT_MS without a request', async () => {
    const r = await rig({ KEEP_ALIVE_TIMEOUT_MS: '300' });
    const held = holdSocket(r.port, '127.0.0.1');
    expect(await held.outcome).toBe('answered');
    // The server, not this test, ends the idle socket (the test's time-out bounds the wait).
    await held.closed;
    expect(held.socket.readableEnded || held.socket.destroyed).toBe(true);
  });

  it('default to a few seconds and 256 sockets per address', () => {
    const config = loadConfig({});
    expect(config.keepAliveTimeoutMs).toBeLessThanOrEqual(10_000);
    expect(config.maxConnectionsPerIp).toBe(256);
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: 'soon' })).toThrow(/KEEP_ALIVE_TIMEOUT_MS/);
    expect(() => loadConfig({ MAX_CONNECTIONS_PER_IP: '0' })).toThrow(/MAX_CONNECTIONS_PER_IP/);
  });
});
