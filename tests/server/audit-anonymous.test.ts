import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS } from '../../server/contract/index.js';
import type { AuditEntry } from '../../server/contract/audit.js';
import { AnonymousShare, OTHER_ADDRESSES } from '../../server/audit/anonymous-share.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { removeTempDirs } from '../support/processes.js';
import { SAME_ORIGIN } from './support/gateway.js';
import { auditGateway, fileText } from './support/audit-rig.js';

/**
 * Issue 36, point 6: outsiders cannot grow the trail at their pace. Throttled logins are counted
 * per address and window, one entry with the count; other failed logins have a bounded share.
 */

let sandbox: StartedSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, withdrawalTickMs: 0 });
});

afterAll(async () => {
  await sandbox?.close();
  removeTempDirs();
});

const entriesOf = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditEntry);

describe('logins without a session', () => {
  it('writes throttled attempts as one counted entry per address, not one each', async () => {
    const gw = await auditGateway(sandbox);
    const attempts = 300;
    let refused = 0;
    for (let i = 0; i < attempts; i++) {
      const response = await gw.app.inject({
        method: 'POST',
        url: CALLS.login,
        headers: SAME_ORIGIN,
        remoteAddress: '203.0.113.7',
        payload: { account: 'nobody-invented', password: `guess-${i}` },
      });
      if (response.statusCode === 429) refused++;
    }
    expect(refused).toBeGreaterThan(attempts / 2);
    const before = entriesOf(await fileText(gw.dataDir).catch(() => ''));
    // Only the attempts the throttle let through are entries of their own.
    expect(before.length).toBe(attempts - refused);
    await gw.app.close();
    const after = entriesOf(await fileText(gw.dataDir));
    const counted = after.filter((entry) => entry.action === 'loginAttempts');
    expect(counted).toHaveLength(1);
    expect(counted[0]).toMatchObject({
      kind: 'login',
      ip: '203.0.113.7',
      actor: { userId: null, account: null },
      detail: { throttled: refused, failed: 0 },
    });
  });
});

describe('the anonymous share', () => {
  it('writes failed attempts up to its share per window, counts the rest per address, and the overflow under *', () => {
    let now = 0;
    const share = new AnonymousShare({ now: () => now, windowMs: 1_000, perWindow: 3, maxAddresses: 2 });
    expect([1, 2, 3].map(() => share.admit('a', false))).toEqual([true, true, true]);
    expect(share.admit('a', false)).toBe(false);
    expect(share.admit('b', true)).toBe(false);
    expect(share.admit('c', false)).toBe(false);
    expect(share.admit('d', true)).toBe(false);
    expect(share.size).toBe(3);
    // Nothing is written before its window closes.
    expect(share.take()).toEqual([]);
    now = 1_000;
    const counts = share.take();
    expect(counts.map((count) => [count.ip, count.throttled, count.failed])).toEqual([
      ['a', 0, 1],
      ['b', 1, 0],
      [OTHER_ADDRESSES, 1, 1],
    ]);
    // A new window has a new share.
    expect(share.admit('a', false)).toBe(true);
    expect(share.admit('a', true)).toBe(false);
    expect(share.take(true)).toHaveLength(1);
  });
});
