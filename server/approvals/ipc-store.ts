import type { PrimaryChannel, RpcHandler } from '../cluster/ipc.js';
import { FileApprovalStore } from './file-store.js';
import type { Hold, StoredHold } from './hold.js';
import type { ApprovalStore, ClaimOutcome, CreateOutcome } from './store.js';

/** The calls the cluster primary answers for its holds (server/cluster/primary.ts). */
export const APPROVAL_CALLS = {
  create: 'approvals.create',
  get: 'approvals.get',
  list: 'approvals.list',
  claim: 'approvals.claim',
  release: 'approvals.release',
  remove: 'approvals.remove',
} as const;

/**
 * A cluster worker's holds (WORKERS > 1 without REDIS_URL): every call goes to the primary, which
 * owns the one file, so two workers never hold the same records twice nor confirm one hold twice.
 */
export class IpcApprovalStore implements ApprovalStore {
  constructor(private readonly channel: PrimaryChannel) {}

  async open(): Promise<void> {}

  create(hold: Hold, now: number): Promise<CreateOutcome> {
    return this.channel.call<CreateOutcome>(APPROVAL_CALLS.create, { hold, now });
  }

  get(id: string, now: number): Promise<StoredHold | null> {
    return this.channel.call<StoredHold | null>(APPROVAL_CALLS.get, { id, now });
  }

  list(now: number): Promise<StoredHold[]> {
    return this.channel.call<StoredHold[]>(APPROVAL_CALLS.list, { now });
  }

  claim(id: string, token: string, now: number): Promise<ClaimOutcome> {
    return this.channel.call<ClaimOutcome>(APPROVAL_CALLS.claim, { id, token, now });
  }

  async release(id: string, token: string): Promise<void> {
    await this.channel.call(APPROVAL_CALLS.release, { id, token });
  }

  remove(id: string, token: string): Promise<boolean> {
    return this.channel.call<boolean>(APPROVAL_CALLS.remove, { id, token });
  }

  /** The primary closes the file once every worker has exited. */
  async close(): Promise<void> {}
}

type Params = { hold: Hold; now: number; id: string; token: string };

/**
 * The primary's side: its file store and the handlers serving the workers' calls. The store is
 * opened before any worker starts, so an unwritable DATA_DIR stops the start as in one process.
 */
export async function approvalPrimary(
  dataDir: string,
  onUnreadable?: (file: string, aside: string, reason: string) => void,
) {
  const store = new FileApprovalStore({ dir: dataDir, ...(onUnreadable ? { onUnreadable } : {}) });
  await store.open();
  const of = (params: unknown) => params as Params;
  const handlers: Record<string, RpcHandler> = {
    [APPROVAL_CALLS.create]: (p) => store.create(of(p).hold, of(p).now),
    [APPROVAL_CALLS.get]: (p) => store.get(of(p).id, of(p).now),
    [APPROVAL_CALLS.list]: (p) => store.list(of(p).now),
    [APPROVAL_CALLS.claim]: (p) => store.claim(of(p).id, of(p).token, of(p).now),
    [APPROVAL_CALLS.release]: (p) => store.release(of(p).id, of(p).token),
    [APPROVAL_CALLS.remove]: (p) => store.remove(of(p).id, of(p).token),
  };
  return { store, handlers };
}
