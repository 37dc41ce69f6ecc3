import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { PrimaryChannel, type RpcHandler } from '../../server/cluster/ipc.js';
import {
  ClusterRevocations,
  IpcAttemptCounter,
  SESSION_CALLS,
  sessionPrimaryHandlers,
} from '../../server/session/cluster.js';
import type { ThrottleRule } from '../../server/session/login-throttle.js';
import { MemoryRevocations } from '../../server/session/revocations.js';

/**
 * Sessions across the workers of one gateway, in one process: each worker's channel talks to the
 * primary's handlers through a stand-in for the IPC pipe (what node:cluster carries between them),
 * and the primary's broadcasts are delivered as the pipe would. The cluster itself, processes and
 * all, is tested in tests/security/cluster-sessions.test.ts.
 */

/** One worker's end of the pipe: its calls reach `handlers` (the primary's), their answers come back as messages. */
class Pipe extends EventEmitter {
  connected = true;
  readonly acks: number[] = [];
  constructor(private readonly handlers: Record<string, RpcHandler>) {
    super();
  }

  send(
    message: { gateway: string; id: number; method?: string; params?: unknown },
    _handle: unknown,
    _options: unknown,
    done?: (error: Error | null) => void,
  ): boolean {
    done?.(null);
    if (message.gateway === 'broadcast-ack') {
      this.acks.push(message.id);
      return true;
    }
    void Promise.resolve()
      .then(() => this.handlers[message.method!]!(message.params, {} as never))
      .then(
        (result) => this.emit('message', { gateway: 'rpc-reply', id: message.id, result }),
        (error: Error) => this.emit('message', { gateway: 'rpc-reply', id: message.id, error: error.message }),
      );
    return true;
  }

  /** What the primary sends every worker after a logout on any of them. */
  broadcast(id: number, payload: { id: string; until: number; floor: number }): void {
    this.emit('message', { gateway: 'broadcast', id, topic: 'session.revoked', payload });
  }
}

function worker(
  handlers: Record<string, RpcHandler>,
  now?: () => number,
): { pipe: Pipe; revocations: ClusterRevocations; counter: IpcAttemptCounter } {
  const pipe = new Pipe(handlers);
  const channel = new PrimaryChannel(pipe as unknown as NodeJS.Process, 5_000);
  return { pipe, revocations: new ClusterRevocations(channel, now), counter: new IpcAttemptCounter(channel) };
}

const HOUR = 3_600_000;
const later = (hours: number) => Date.now() + hours * HOUR;

describe('revocations across workers', () => {
  it("takes over the primary's logouts when a worker opens, and nothing else", async () => {
    const primary = sessionPrimaryHandlers();
    await primary[SESSION_CALLS.revoke]!({ id: 'logged-out', until: later(2) }, {} as never);
    const { revocations } = worker(primary);
    expect(await revocations.isRevoked('logged-out', later(2))).toBe(false);
    await revocations.open();
    expect(await revocations.isRevoked('logged-out', later(2))).toBe(true);
    expect(await revocations.isRevoked('still-in', later(2))).toBe(false);
  });

  it("takes over the primary's floor too: a primary past its cap refuses every session expiring under it", async () => {
    const primary = sessionPrimaryHandlers(10);
    for (let i = 1; i <= 12; i++) await primary[SESSION_CALLS.revoke]!({ id: `s${i}`, until: later(i) }, {} as never);
    const { floor } = primary[SESSION_CALLS.revocations]!(null, {} as never) as { floor: number };
    expect(floor).toBeGreaterThan(later(0));
    const { revocations } = worker(primary);
    await revocations.open();
    // Never logged out, but expiring no later than the floor: refused, as on the primary.
    expect(await revocations.isRevoked('never-logged-out', floor)).toBe(true);
    expect(await revocations.isRevoked('never-logged-out', floor + 1)).toBe(false);
    expect(await revocations.isRevoked('s12', later(12))).toBe(true);
  });

  it("refuses a worker's own logout at once, and hands it to the primary before it resolves", async () => {
    const primary = sessionPrimaryHandlers();
    const { revocations } = worker(primary);
    const until = later(3);
    const told: string[] = [];
    revocations.subscribe((id) => told.push(id));
    await revocations.revoke('mine', until);
    expect(await revocations.isRevoked('mine', until)).toBe(true);
    expect(told).toEqual(['mine']);
    const list = primary[SESSION_CALLS.revocations]!(null, {} as never) as { list: Array<[string, number]> };
    expect(list.list).toContainEqual(['mine', until]);
  });

  it("applies another worker's logout and the primary's floor from its broadcast, and acknowledges it", async () => {
    const { pipe, revocations } = worker(sessionPrimaryHandlers());
    const told: string[] = [];
    const floors: number[] = [];
    revocations.subscribe((id) => told.push(id));
    revocations.subscribeFloor((floor) => floors.push(floor));
    const floor = later(1);
    pipe.broadcast(41, { id: 'theirs', until: later(5), floor });
    await expect.poll(() => pipe.acks).toEqual([41]);
    expect(await revocations.isRevoked('theirs', later(5))).toBe(true);
    expect(await revocations.isRevoked('anyone', floor)).toBe(true);
    expect(await revocations.isRevoked('anyone', floor + 1)).toBe(false);
    expect(told).toEqual(['theirs']);
    expect(floors).toEqual([floor]);

    // Closed, it tells nobody of later broadcasts.
    await revocations.close();
    pipe.broadcast(42, { id: 'after-close', until: later(5), floor });
    await expect.poll(() => pipe.acks).toEqual([41, 42]);
    expect(told).toEqual(['theirs']);
  });

  it('forgets a logout once the session would have expired anyway', async () => {
    let now = Date.now();
    const { pipe, revocations } = worker(sessionPrimaryHandlers(), () => now);
    const until = now + 1_000;
    pipe.broadcast(1, { id: 'short', until, floor: 0 });
    await expect.poll(() => pipe.acks).toEqual([1]);
    expect(await revocations.isRevoked('short', until)).toBe(true);
    now = until + 1;
    expect(await revocations.isRevoked('short', until)).toBe(false);
  });
});

describe('login counters across workers', () => {
  const rule: ThrottleRule = { limit: 3, windowMs: 15 * 60_000, baseDelayMs: 1_000, maxDelayMs: 60_000 };

  it('counts the failures of every worker against one limit, kept by the primary', async () => {
    const primary = sessionPrimaryHandlers();
    const one = worker(primary).counter;
    const two = worker(primary).counter;
    const now = Date.now();
    expect(await one.take('acct|addr', rule, now)).toBe(0);
    expect(await two.take('acct|addr', rule, now)).toBe(0);
    expect(await one.take('acct|addr', rule, now)).toBe(0);
    // The third failure, on either worker, makes the next attempt wait, whichever worker takes it.
    expect(await two.take('acct|addr', rule, now)).toBe(1_000);
    expect(await one.take('acct|addr', rule, now + 400)).toBe(600);
    // Another key is counted apart.
    expect(await two.take('other|addr', rule, now)).toBe(0);
  });

  it('un-counts an attempt given back, and forgets a cleared key, for every worker', async () => {
    const primary = sessionPrimaryHandlers();
    const one = worker(primary).counter;
    const two = worker(primary).counter;
    const now = Date.now();
    for (let i = 0; i < 3; i++) await one.take('k', rule, now);
    await two.give('k');
    // Two failures left: the next attempt is taken at once (and counted as the third).
    expect(await one.take('k', rule, now)).toBe(0);
    expect(await two.take('k', rule, now)).toBe(1_000);
    await one.clear('k');
    expect(await two.take('k', rule, now)).toBe(0);
    await one.close();
  });
});

describe('revocations in memory, rule by rule', () => {
  it('records a logout once, lengthens it but never shortens it, and ignores one under the floor', () => {
    const store = new MemoryRevocations({ now: () => 0 });
    const told: string[] = [];
    const stop = store.subscribe((id) => told.push(id));
    expect(store.add('a', 100)).toBe(true);
    expect(store.add('a', 100)).toBe(false);
    expect(store.add('a', 50)).toBe(false);
    expect(store.list()).toEqual([['a', 100]]);
    expect(store.add('a', 200)).toBe(false);
    expect(store.list()).toEqual([['a', 200]]);
    expect(told).toEqual(['a']);
    expect(store.raiseFloor(150)).toBe(true);
    expect(store.add('b', 150)).toBe(false);
    expect(store.add('c', 151)).toBe(true);
    stop();
    store.add('d', 300);
    expect(told).toEqual(['a', 'c']);
  });

  it('raises the floor only upwards, telling once, and drops the ids under it', () => {
    const store = new MemoryRevocations({ now: () => 0 });
    const floors: number[] = [];
    store.subscribeFloor((floor) => floors.push(floor));
    store.add('low', 10);
    store.add('edge', 20);
    store.add('high', 30);
    expect(store.raiseFloor(20)).toBe(true);
    expect(store.raiseFloor(20)).toBe(false);
    expect(store.raiseFloor(5)).toBe(false);
    expect(store.floor).toBe(20);
    expect(floors).toEqual([20]);
    expect(store.list()).toEqual([['high', 30]]);
    expect(store.has('edge', 20)).toBe(true);
    expect(store.has('other', 21)).toBe(false);
  });

  it('lists only the logouts still in force', () => {
    let now = 0;
    const store = new MemoryRevocations({ now: () => now });
    store.add('a', 10);
    store.add('b', 20);
    now = 10;
    expect(store.list()).toEqual([['b', 20]]);
  });

  it('past its cap forgets expired ids first, then a tenth of the soonest to expire, under a floor at the last of them', () => {
    let now = 0;
    const store = new MemoryRevocations({ now: () => now, maxEntries: 10 });
    // Added out of order, so only a sort finds the soonest to expire.
    for (const until of [50, 10, 90, 30, 70, 20, 100, 60, 40, 80]) store.add(`s${until}`, until);
    expect(store.size).toBe(10);
    expect(store.floor).toBe(0);
    store.add('s110', 110);
    // 11 over a cap of 10: down to 9 (a tenth of the cap below it), the two soonest forgotten under the floor.
    expect(store.size).toBe(9);
    expect(store.floor).toBe(20);
    expect(store.has('s10', 10)).toBe(true);
    expect(store.has('never', 20)).toBe(true);
    expect(store.has('never', 21)).toBe(false);
    expect(store.has('s30', 30)).toBe(true);
    // Expired ids go first: with two of them gone there is room, and the floor stays.
    now = 40;
    store.add('s120', 120);
    store.add('s130', 130);
    expect(store.floor).toBe(20);
  });
});
