import type { PrimaryChannel, RpcHandler } from '../cluster/ipc.js';
import { broadcastToWorkers } from '../cluster/ipc.js';
import { MemoryAttemptCounter, type AttemptCounter, type ThrottleRule } from './login-throttle.js';
import { MemoryRevocations, type RevocationStore } from './revocations.js';

/**
 * Sessions across the workers of one gateway (WORKERS > 1). The primary holds the one list of
 * revocations and the one set of login counters; a revocation is pushed to every worker, which
 * keeps its own copy so the per-request check costs no IPC.
 */

export const SESSION_CALLS = {
  revoke: 'session.revoke',
  revocations: 'session.revocations',
  throttleTake: 'login-throttle.take',
  throttleGive: 'login-throttle.give',
  throttleClear: 'login-throttle.clear',
} as const;

const REVOKED_TOPIC = 'session.revoked';

interface Revocation {
  id: string;
  until: number;
  /** The primary's floor after this revocation: a worker's copy must refuse at least as much. */
  floor: number;
}

/** What a worker that joins later takes over. */
interface RevocationList {
  list: Array<[string, number]>;
  floor: number;
}

/** The primary's side: what startPrimary() serves to its workers. */
export function sessionPrimaryHandlers(maxRevocations?: number): Record<string, RpcHandler> {
  const revocations = new MemoryRevocations(maxRevocations === undefined ? {} : { maxEntries: maxRevocations });
  const counter = new MemoryAttemptCounter();
  return {
    [SESSION_CALLS.revoke]: async (params) => {
      const { id, until } = params as Omit<Revocation, 'floor'>;
      revocations.add(id, until);
      await broadcastToWorkers(REVOKED_TOPIC, { id, until, floor: revocations.floor } satisfies Revocation);
    },
    [SESSION_CALLS.revocations]: (): RevocationList => ({ list: revocations.list(), floor: revocations.floor }),
    [SESSION_CALLS.throttleTake]: (params) => {
      const { key, rule, now } = params as { key: string; rule: ThrottleRule; now: number };
      return counter.takeNow(key, rule, now);
    },
    [SESSION_CALLS.throttleGive]: (params) => counter.giveNow((params as { key: string }).key),
    [SESSION_CALLS.throttleClear]: (params) => counter.clearNow((params as { key: string }).key),
  };
}

/** A worker's revocations: a local copy, kept in step by the primary's broadcasts. */
export class ClusterRevocations implements RevocationStore {
  private readonly local: MemoryRevocations;

  constructor(
    private readonly channel: PrimaryChannel,
    now?: () => number,
    maxEntries?: number,
  ) {
    this.local = new MemoryRevocations({
      ...(now ? { now } : {}),
      ...(maxEntries === undefined ? {} : { maxEntries }),
    });
    channel.onBroadcast(REVOKED_TOPIC, (payload) => {
      const { id, until, floor } = payload as Revocation;
      this.local.raiseFloor(floor);
      this.local.add(id, until);
    });
  }

  /** Takes over what the primary knows, for a worker started (or restarted) after logouts. */
  async open(): Promise<void> {
    const known = await this.channel.call<RevocationList>(SESSION_CALLS.revocations);
    this.local.raiseFloor(known.floor);
    for (const [id, until] of known.list) this.local.add(id, until);
  }

  async revoke(id: string, until: number): Promise<void> {
    this.local.add(id, until);
    await this.channel.call(SESSION_CALLS.revoke, { id, until } satisfies Omit<Revocation, 'floor'>);
  }

  async isRevoked(id: string, until: number): Promise<boolean> {
    return this.local.has(id, until);
  }

  subscribe(listener: (id: string) => void): () => void {
    return this.local.subscribe(listener);
  }

  subscribeFloor(listener: (floor: number) => void): () => void {
    return this.local.subscribeFloor(listener);
  }

  async close(): Promise<void> {
    await this.local.close();
  }
}

/** A worker's login counters: every call goes to the primary, so the limits hold across workers. */
export class IpcAttemptCounter implements AttemptCounter {
  constructor(private readonly channel: PrimaryChannel) {}

  take(key: string, rule: ThrottleRule, now: number): Promise<number> {
    return this.channel.call<number>(SESSION_CALLS.throttleTake, { key, rule, now });
  }

  async give(key: string): Promise<void> {
    await this.channel.call(SESSION_CALLS.throttleGive, { key });
  }

  async clear(key: string): Promise<void> {
    await this.channel.call(SESSION_CALLS.throttleClear, { key });
  }

  async close(): Promise<void> {}
}
