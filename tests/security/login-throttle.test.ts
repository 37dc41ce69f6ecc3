import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS } from '../../server/contract/index.js';
import { FAKE_PASSWORD } from '../support/fake-session.js';
import { callsSince, startGateway, startRig, useSandboxGateway, type Rig } from './support/rig.js';

/**
 * Hole 6: wrong passwords all reached the backend, as fast as they came, and client-sent
 * forwarding headers passed through. Failed logins are now throttled per account and client
 * address (LOGIN_MAX_FAILURES in 15 minutes, then 429 RATE_LIMITED with a growing Retry-After)
 * and per address (30); the backend learns the client's address from the gateway alone.
 */

interface Attempt {
  status: number;
  body: { code: number; msg: string; error?: string; data?: { retryAfterSeconds?: number } };
  retryAfter: number | null;
}

async function attempt(
  url: string,
  account: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Attempt> {
  const res = await fetch(`${url}${CALLS.login}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, ...headers },
    body: JSON.stringify({ account, password, code: '' }),
  });
  const retry = res.headers.get('retry-after');
  return {
    status: res.status,
    body: (await res.json()) as Attempt['body'],
    retryAfter: retry === null ? null : Number(retry),
  };
}

const loginCalls = (rig: Rig, since: number) => callsSince(rig.backend, since, CALLS.login);

describe('login throttling', () => {
  let rig: Rig;
  let now = Date.UTC(2026, 2, 1, 8, 0, 0);
  const seconds = (n: number) => n * 1000;
  // Each test is a client of its own: behind a trusted proxy, its address is what the proxy saw.
  let nextClient = 1;
  const client = () => ({ 'x-forwarded-for': `198.51.100.${nextClient++}` });

  beforeAll(async () => {
    rig = await startRig({ TRUST_PROXY: 'true', LOGIN_MAX_FAILURES: '5' }, { now: () => now });
  });
  afterAll(async () => {
    await rig.close();
  });

  it('lets LOGIN_MAX_FAILURES wrong passwords through, then answers 429 without asking the backend, the wait growing', async () => {
    const from = client();
    const before = rig.backend.calls.length;
    for (let i = 0; i < 5; i++) {
      const a = await attempt(rig.url, 'alice/1', 'wrong', from);
      expect(a.status).toBe(200);
      expect(a.body.code).toBe(1001);
    }
    expect(loginCalls(rig, before)).toHaveLength(5);

    const first = await attempt(rig.url, 'alice/1', FAKE_PASSWORD, from);
    expect(first.status).toBe(429);
    expect(first.body).toMatchObject({ code: 429, error: 'RATE_LIMITED' });
    expect(first.retryAfter).toBeGreaterThan(0);
    expect(first.body.data?.retryAfterSeconds).toBe(first.retryAfter);
    // Even the right password waits: the backend is not asked.
    expect(loginCalls(rig, before)).toHaveLength(5);

    // After the wait, one more try reaches the backend; failing again makes the next wait longer.
    now += seconds(first.retryAfter!);
    const sixth = await attempt(rig.url, 'alice/1', 'wrong', from);
    expect(sixth.body.code).toBe(1001);
    const second = await attempt(rig.url, 'alice/1', 'wrong', from);
    expect(second.status).toBe(429);
    expect(second.retryAfter!).toBeGreaterThan(first.retryAfter!);
    now += seconds(second.retryAfter!);
    expect((await attempt(rig.url, 'alice/1', 'wrong', from)).body.code).toBe(1001);
    const third = await attempt(rig.url, 'alice/1', 'wrong', from);
    expect(third.retryAfter!).toBeGreaterThan(second.retryAfter!);
    expect(loginCalls(rig, before)).toHaveLength(7);

    // The account counts as one however it is spelled.
    expect((await attempt(rig.url, '  ALICE/1 ', 'wrong', from)).status).toBe(429);
  });

  it('keeps other accounts from the same address and the same account from elsewhere apart', async () => {
    const from = client();
    for (let i = 0; i < 5; i++) await attempt(rig.url, 'bob/2', 'wrong', from);
    expect((await attempt(rig.url, 'bob/2', 'wrong', from)).status).toBe(429);
    expect((await attempt(rig.url, 'carol/3', FAKE_PASSWORD, from)).status).toBe(200);
    expect((await attempt(rig.url, 'bob/2', FAKE_PASSWORD, client())).body.code).toBe(200);
  });

  it("forgets an account's failures once it logs in", async () => {
    const from = client();
    for (let i = 0; i < 4; i++) await attempt(rig.url, 'dave/4', 'wrong', from);
    expect((await attempt(rig.url, 'dave/4', FAKE_PASSWORD, from)).body.code).toBe(200);
    for (let i = 0; i < 4; i++) expect((await attempt(rig.url, 'dave/4', 'wrong', from)).status).toBe(200);
  });

  it('caps one address spraying many accounts at 30 failures', async () => {
    const from = client();
    const before = rig.backend.calls.length;
    for (let i = 0; i < 30; i++) expect((await attempt(rig.url, `spray${i}/9`, 'wrong', from)).status).toBe(200);
    const refused = await attempt(rig.url, 'spray-new/9', 'wrong', from);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('RATE_LIMITED');
    expect(loginCalls(rig, before)).toHaveLength(30);
  });

  it('lets at most LOGIN_MAX_FAILURES of a burst of 40 parallel guesses reach the backend', async () => {
    const from = client();
    const before = rig.backend.calls.length;
    const answers = await Promise.all(Array.from({ length: 40 }, () => attempt(rig.url, 'erin/5', 'wrong', from)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(35);
    expect(loginCalls(rig, before)).toHaveLength(5);
  });

  it('forgets failures 15 minutes after the last one', async () => {
    const from = client();
    for (let i = 0; i < 5; i++) await attempt(rig.url, 'frank/6', 'wrong', from);
    expect((await attempt(rig.url, 'frank/6', 'wrong', from)).status).toBe(429);
    now += 15 * 60_000;
    expect((await attempt(rig.url, 'frank/6', 'wrong', from)).status).toBe(200);
  });
});

describe('the client address', () => {
  let direct: Rig;

  beforeAll(async () => {
    direct = await startRig({ LOGIN_MAX_FAILURES: '3' });
  });
  afterAll(async () => {
    await direct.close();
  });

  const spoofed = {
    'x-forwarded-for': '203.0.113.66',
    'x-forwarded-host': 'evil.example',
    'x-forwarded-proto': 'https',
    'x-real-ip': '203.0.113.67',
    forwarded: 'for=203.0.113.68;proto=https',
  };

  it('reaches the backend as the gateway saw it, never as the client claimed', async () => {
    const before = direct.backend.calls.length;
    await attempt(direct.url, 'gina/7', FAKE_PASSWORD, spoofed);
    const [call] = loginCalls(direct, before);
    expect(call!.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(call!.headers['x-forwarded-proto']).toBe('http');
    expect(call!.headers['x-forwarded-host']).toBeUndefined();
    expect(call!.headers['x-real-ip']).toBeUndefined();
    expect(call!.headers.forwarded).toBeUndefined();
  });

  it('is not reset by a spoofed X-Forwarded-For when no proxy is trusted', async () => {
    for (let i = 0; i < 3; i++) await attempt(direct.url, 'hank/8', 'wrong', { 'x-forwarded-for': `10.0.0.${i}` });
    expect((await attempt(direct.url, 'hank/8', 'wrong', { 'x-forwarded-for': '10.9.9.9' })).status).toBe(429);
  });

  it('behind a trusted proxy is the address the proxy saw, not what the client wrote before it', async () => {
    const proxied = await startRig({ TRUST_PROXY: 'true', LOGIN_MAX_FAILURES: '3' });
    try {
      // nginx appends the address it saw to what the client sent: "<client's claim>, <real>".
      for (let i = 0; i < 3; i++)
        await attempt(proxied.url, 'ivy/9', 'wrong', { 'x-forwarded-for': `10.0.0.${i}, 192.0.2.10` });
      const refused = await attempt(proxied.url, 'ivy/9', 'wrong', { 'x-forwarded-for': '10.7.7.7, 192.0.2.10' });
      expect(refused.status).toBe(429);
      const before = proxied.backend.calls.length;
      await attempt(proxied.url, 'jack/10', FAKE_PASSWORD, { 'x-forwarded-for': '10.0.0.1, 192.0.2.11' });
      expect(loginCalls(proxied, before)[0]!.headers['x-forwarded-for']).toBe('192.0.2.11');
    } finally {
      await proxied.close();
    }
  });

  it('does not count a login the backend never answered', async () => {
    const gateway = await startGateway('http://127.0.0.1:1', { LOGIN_MAX_FAILURES: '2' });
    try {
      for (let i = 0; i < 4; i++) expect((await attempt(gateway.url, 'kim/11', 'wrong')).status).toBe(502);
    } finally {
      await gateway.app.close();
    }
  });
});

describe('login throttling against the sandbox backend', () => {
  const sandboxGateway = useSandboxGateway();

  it('refuses the sixth wrong admin password with 429 and keeps the right one waiting', async () => {
    const gateway = sandboxGateway();
    for (let i = 0; i < 5; i++) {
      const a = await attempt(gateway.url, 'admin', `guess-${i}`);
      expect(a.status).toBe(200);
      expect(a.body.code).not.toBe(200);
    }
    const blocked = await attempt(gateway.url, 'admin', 'admin123');
    expect(blocked.status).toBe(429);
    expect(blocked.retryAfter).toBeGreaterThan(0);
    // Another account is not locked out by admin's failures.
    expect((await attempt(gateway.url, 'operator', 'operator123')).body.code).toBe(200);
  });
});
