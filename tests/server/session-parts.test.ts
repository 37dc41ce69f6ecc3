import { describe, expect, it } from 'vitest';
import { SessionSealer, newSessionId, type SealedSession } from '../../server/session/seal.js';
import { MemoryRevocations } from '../../server/session/revocations.js';
import {
  LoginThrottle,
  MemoryAttemptCounter,
  accountKey,
  throttleDelayMs,
  type ThrottleRule,
} from '../../server/session/login-throttle.js';
import { ambiguousPathReason, areaOf } from '../../server/lib/request-path.js';
import { jsonNestsDeeperThan } from '../../server/lib/json-body.js';
import { isInlineFileType, plateAnswerHeaders } from '../../server/lib/plate-headers.js';
import { requestIdOf } from '../../server/lib/forwarded.js';

const SECRET = Buffer.from('unit-test-session-secret-0123456789abcdef');
const session: SealedSession = {
  token: 'tok-é-1',
  userId: '42',
  id: newSessionId(),
  issuedAt: 1_700_000_000_000,
  lastSeen: 1_700_000_060_000,
};

describe('the session seal', () => {
  const sealer = new SessionSealer(SECRET);

  it('opens what it sealed, to the second', () => {
    expect(sealer.unseal(sealer.seal(session))).toEqual(session);
    expect(sealer.unseal(sealer.seal({ ...session, lastSeen: session.lastSeen + 999 }))?.lastSeen).toBe(
      session.lastSeen,
    );
  });

  it('keeps the account typed at login, beside the kept values of a backend map or without them', () => {
    const named = { ...session, account: 'operator' };
    expect(sealer.unseal(sealer.seal(named))).toEqual(named);
    const kept = { ...named, kept: { role: 'finance' } };
    expect(sealer.unseal(sealer.seal(kept))).toEqual(kept);
    // A session sealed before accounts were kept still opens, without one.
    expect(sealer.unseal(sealer.seal({ ...session, kept: { role: 'finance' } }))).toEqual({
      ...session,
      kept: { role: 'finance' },
    });
    expect(sealer.seal(named)).not.toContain('operator');
  });

  it('never seals the same session to the same value, and never shows the token', () => {
    const a = sealer.seal(session);
    expect(sealer.seal(session)).not.toBe(a);
    expect(a).not.toContain('tok');
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
  });

  it('refuses any change, another key, the old format and junk', () => {
    const value = sealer.seal(session);
    for (let i = 3; i < value.length; i += 7) {
      const changed = value.slice(0, i) + (value[i] === 'A' ? 'B' : 'A') + value.slice(i + 1);
      expect(sealer.unseal(changed), `changed at ${i}`).toBeNull();
    }
    expect(new SessionSealer(Buffer.from('another-session-secret-0123456789abcdef')).unseal(value)).toBeNull();
    for (const junk of [
      'tok-1',
      '',
      'v1.',
      'v1.AAAA',
      `v2.${value.slice(3)}`,
      value.slice(0, -4),
      `v1.${'A'.repeat(5000)}`,
    ]) {
      expect(sealer.unseal(junk), junk.slice(0, 20)).toBeNull();
    }
  });

  it('wants a secret of 32 bytes at least', () => {
    expect(() => new SessionSealer(Buffer.alloc(31))).toThrow(RangeError);
    expect(sealer.unseal(new SessionSealer(Buffer.alloc(32, 7)).seal(session))).toBeNull();
  });

  it('opens a cookie sealed by an earlier run of the gateway with the same secret', () => {
    // Sealed once and kept here: the key derivation, the bound label and the payload layout must
    // not change, or an upgrade (or replicas of two versions) would log every administrator out.
    const sealedEarlier =
      'v1.bkxTplFVekhW05X-_cGDuaDdENW4hZxJyF2S20WjUtY2xtpaVyVMpBz3UpTiHa30WpWC85KCAUrgnCaVIJXaf3lhGVMc94zmbB77kq2MF6y1';
    expect(sealer.unseal(sealedEarlier)).toEqual({
      token: 'tok-golden',
      userId: '42',
      id: 'golden-id',
      issuedAt: 1_700_000_000_000,
      lastSeen: 1_700_000_060_000,
    });
  });

  it("keeps a backend map's login values, and seals none when there are none", () => {
    const kept = { role: 'auditor', apiKey: 'k-1' };
    expect(sealer.unseal(sealer.seal({ ...session, kept }))).toEqual({ ...session, kept });
    const without = sealer.unseal(sealer.seal({ ...session, kept: {} }));
    expect(without).toEqual(session);
    expect(without).not.toHaveProperty('kept');
  });

  it('refuses a sealed value whose content is not a session, though the seal itself holds', () => {
    // What a bug elsewhere, or an older version, might have sealed: never taken for a session.
    const odd = (change: Record<string, unknown>) =>
      sealer.unseal(sealer.seal({ ...session, ...change } as unknown as SealedSession));
    for (const change of [
      { token: 5 },
      { userId: null },
      { id: ['x'] },
      { issuedAt: Number.NaN },
      { lastSeen: Number.POSITIVE_INFINITY },
    ]) {
      expect(odd(change), JSON.stringify(change)).toBeNull();
    }
    for (const kept of [{ role: 1 }, ['role'], { role: null }]) expect(odd({ kept }), JSON.stringify(kept)).toBeNull();
  });

  it('opens the longest value within 4,096 characters, and refuses a longer one unopened', () => {
    // Unpadded base64url after "v1." never comes to 4,096 exactly: 4,095 is the longest within the bound.
    let token = 'a';
    while (sealer.seal({ ...session, token: `${token}a` }).length <= 4_096) token += 'a';
    const longest = { ...session, token };
    const value = sealer.seal(longest);
    expect(value.length).toBe(4_095);
    expect(sealer.unseal(value)).toEqual(longest);
    const over = sealer.seal({ ...longest, token: `${token}a` });
    expect(over.length).toBe(4_097);
    expect(sealer.unseal(over)).toBeNull();
  });

  it('makes 128-bit session ids', () => {
    const ids = new Set(Array.from({ length: 1000 }, newSessionId));
    expect(ids.size).toBe(1000);
    expect(Buffer.from([...ids][0]!, 'base64url').length).toBe(16);
  });
});

describe('revocations in memory', () => {
  it('refuses an id until its time, tells listeners once, and forgets it after', async () => {
    let now = 1_000;
    const store = new MemoryRevocations({ now: () => now });
    const heard: string[] = [];
    store.subscribe((id) => heard.push(id));
    await store.revoke('a', 5_000);
    await store.revoke('a', 4_000);
    expect(await store.isRevoked('a', 5_000)).toBe(true);
    expect(await store.isRevoked('b', 5_000)).toBe(false);
    expect(heard).toEqual(['a']);
    expect(store.list()).toEqual([['a', 5_000]]);
    now = 5_000;
    expect(await store.isRevoked('a', 5_000)).toBe(false);
    expect(store.size).toBe(0);
  });

  it('stays bounded, and the ids it forgets (those closest to their own expiry) stay refused', async () => {
    const store = new MemoryRevocations({ now: () => 0, maxEntries: 100 });
    const floors: number[] = [];
    store.subscribeFloor((floor) => floors.push(floor));
    for (let i = 0; i < 150; i++) await store.revoke(`id${i}`, 1_000 + i);
    expect(store.size).toBeLessThanOrEqual(100);
    expect(await store.isRevoked('id149', 1_149)).toBe(true);
    expect(await store.isRevoked('id0', 1_000)).toBe(true);
    // Fails closed: a session never logged out but as old as a forgotten one is refused too.
    expect(await store.isRevoked('never-logged-out', 1_000)).toBe(true);
    expect(floors.length).toBeGreaterThan(0);
    expect(await store.isRevoked('never-logged-out', 1_000 + 150)).toBe(false);
  });
});

describe('login throttling', () => {
  const rule: ThrottleRule = { limit: 3, windowMs: 60_000, baseDelayMs: 1_000, maxDelayMs: 10_000 };

  it('doubles the wait with every failure past the limit, up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 50].map((count) => throttleDelayMs(count, rule))).toEqual([
      0, 0, 0, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000,
    ]);
  });

  it('counts attempts as they start, refuses while waiting without counting, and forgets after the window', () => {
    const counter = new MemoryAttemptCounter();
    for (let i = 0; i < 3; i++) expect(counter.takeNow('k', rule, 0)).toBe(0);
    expect(counter.takeNow('k', rule, 500)).toBe(500);
    expect(counter.takeNow('k', rule, 999)).toBe(1);
    expect(counter.takeNow('k', rule, 1_000)).toBe(0); // the 4th attempt
    expect(counter.takeNow('k', rule, 2_999)).toBe(1);
    counter.giveNow('k'); // it did not fail: the wait falls back
    expect(counter.takeNow('k', rule, 2_000)).toBe(0);
    expect(counter.takeNow('k', rule, 2_000 + 60_000)).toBe(0); // the window after the last attempt passed: a fresh count
    expect(counter.takeNow('k', rule, 62_001)).toBe(0);
    expect(counter.takeNow('k', rule, 62_002)).toBe(0);
    expect(counter.takeNow('k', rule, 62_003)).toBe(1_000 - 1); // the limit again, after three
  });

  it('stays bounded', () => {
    const counter = new MemoryAttemptCounter(10);
    for (let i = 0; i < 50; i++) counter.takeNow(`k${i}`, rule, 0);
    expect(counter.size).toBe(10);
  });

  it('folds account names and keeps the address apart', async () => {
    expect(accountKey('  Admin ')).toBe('admin');
    expect(accountKey('ＡＤＭＩＮ')).toBe('admin');
    let now = 0;
    const throttle = new LoginThrottle({
      counter: new MemoryAttemptCounter(),
      perAccount: 2,
      perAddress: 3,
      baseDelayMs: 1_000,
      now: () => now,
    });
    for (let i = 0; i < 2; i++) {
      const verdict = await throttle.begin('Admin', '10.0.0.1');
      if (!verdict.allowed) throw new Error('allowed expected');
      await verdict.attempt.failed();
    }
    expect((await throttle.begin('admin', '10.0.0.1')).allowed).toBe(false);
    expect((await throttle.begin('admin', '10.0.0.2')).allowed).toBe(true);
    // The address has one failure left under its own cap of 3.
    const other = await throttle.begin('bob', '10.0.0.1');
    expect(other.allowed).toBe(true);
    if (other.allowed) await other.attempt.failed();
    const refused = await throttle.begin('carol', '10.0.0.1');
    expect(refused).toEqual({ allowed: false, retryAfterMs: 1_000 });
    now += 1_000;
    const success = await throttle.begin('carol', '10.0.0.1');
    expect(success.allowed).toBe(true);
    if (success.allowed) await success.attempt.succeeded();
  });
});

describe('request paths', () => {
  it.each([
    ['/manage/station/sensitiveWord/save', 'manage'],
    ['/%6danage/x', 'manage'],
    ['/api', 'api'],
    ['/api/session', 'api'],
    ['/plate/a.png', 'plate'],
    ['/manage\\logIn', 'manage'],
    ['/managex', null],
    ['/assets/main.js', null],
    ['/%zz', null],
  ] as const)('puts %s in area %s', (path, area) => {
    expect(areaOf(path)).toBe(area);
  });

  it.each([
    '/manage/station/sensitiveWord/list',
    '/manage/logIn',
    '/plate/%E5%A4%B4%E5%83%8F.png',
    '/plate/a%20b.png',
    '/manage/x/',
    '/api/exclude/siteConfig/webSiteConfig',
  ])('takes the plain spelling %s', (path) => {
    expect(ambiguousPathReason(path)).toBeNull();
  });

  it.each([
    '/manage/./x',
    '/manage/../x',
    '/manage//x',
    '/manage/x;y',
    '/manage\\x',
    '/manage/%2e/x',
    '/manage%2Fx',
    '/manage/%5cx',
    '/manage/%25',
    '/manage/%41',
    '/manage/%7e',
    '/manage/%00',
    '/manage/login',
    '/manage/logIn/',
    '/MANAGE/LOGIN'.toLowerCase(),
  ])('refuses the ambiguous spelling %s', (path) => {
    expect(ambiguousPathReason(path)).not.toBeNull();
  });
});

describe('JSON depth', () => {
  it('counts nesting, not brackets inside strings', () => {
    expect(jsonNestsDeeperThan('[[[1]]]', 3)).toBe(false);
    expect(jsonNestsDeeperThan('[[[[1]]]]', 3)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":{"b":{"c":1}}}', 3)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ s: '[[[[[[[[', t: '\\"[[[[[' }), 2)).toBe(false);
    expect(jsonNestsDeeperThan(`${'['.repeat(100)}${']'.repeat(100)}`, 64)).toBe(true);
  });
});

describe('/plate answer headers', () => {
  it('serves media inline and everything else as an octet-stream attachment', () => {
    expect(isInlineFileType('image/png')).toBe(true);
    expect(isInlineFileType('Video/MP4; codecs="avc1"')).toBe(true);
    expect(isInlineFileType('audio/mpeg')).toBe(true);
    for (const type of ['text/html', 'application/javascript', 'image', 'text/plain; x=image/png', undefined, '']) {
      expect(isInlineFileType(type), String(type)).toBe(false);
    }
    const html = plateAnswerHeaders({ 'content-type': 'text/html', 'content-disposition': 'inline' });
    expect(html).toMatchObject({
      'content-type': 'application/octet-stream',
      'content-disposition': 'attachment',
      'x-content-type-options': 'nosniff',
    });
  });
});

describe('the request id a client may bring', () => {
  it.each(['abc', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'req-1.2_3', 'x'.repeat(64)])('keeps %s', (id) => {
    expect(requestIdOf({ 'x-request-id': id })).toBe(id);
  });
  it.each(['', 'x'.repeat(65), 'a b', 'a,b', 'é', '<script>', 'x'.repeat(8192)])(
    'replaces %j with a fresh one',
    (id) => {
      const made = requestIdOf({ 'x-request-id': id });
      expect(made).not.toBe(id);
      expect(made).toMatch(/^[0-9a-f-]{36}$/);
    },
  );
});
