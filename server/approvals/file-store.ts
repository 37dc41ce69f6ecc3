import { SnapshotFile } from '../lib/snapshot-file.js';
import { parseHold, type Hold, type StoredHold } from './hold.js';
import {
  DEFAULT_CLAIM_STALE_MS,
  HoldTable,
  type ApprovalStore,
  type ClaimOutcome,
  type CreateOutcome,
  type TableSnapshot,
} from './store.js';

export interface FileApprovalStoreOptions {
  /** DATA_DIR: holds go to approvals.json there. */
  dir: string;
  /** Told when a file that cannot be read is set aside (the holds in it are lost: nothing was sent). */
  onUnreadable?(file: string, setAside: string, reason: string): void;
  claimStaleMs?: number;
}

/**
 * Holds of one gateway process (or of the cluster primary, for its workers), written to
 * DATA_DIR/approvals.json after every change, so a restart finds them again. An unreadable file
 * (written by something else, or damaged on disk) is set aside and never read as holds: a hold
 * that cannot be trusted must not be confirmable.
 */
export class FileApprovalStore implements ApprovalStore {
  private readonly table: HoldTable;
  private readonly store: SnapshotFile;

  constructor(options: FileApprovalStoreOptions) {
    const table = new HoldTable(options.claimStaleMs ?? DEFAULT_CLAIM_STALE_MS);
    this.table = table;
    this.store = new SnapshotFile({
      dir: options.dir,
      name: 'approvals.json',
      holds: 'held calls',
      load: (snapshot) => {
        const holds = snapshot as TableSnapshot | null;
        if (holds?.version !== 1 || !Array.isArray(holds.holds)) throw new Error('not a file of held calls');
        table.load(holds, parseHold);
      },
      snapshot: () => table.snapshot(),
      ...(options.onUnreadable ? { onUnreadable: options.onUnreadable } : {}),
    });
  }

  get file(): string {
    return this.store.file;
  }

  open(): Promise<void> {
    return this.store.open();
  }

  create(hold: Hold, now: number): Promise<CreateOutcome> {
    return this.change(now, () => {
      const outcome = this.table.create(hold, now);
      return { result: outcome, changed: outcome.created };
    });
  }

  get(id: string, now: number): Promise<StoredHold | null> {
    return this.change(now, () => ({ result: this.table.get(id, now), changed: false }));
  }

  list(now: number): Promise<StoredHold[]> {
    return this.change(now, () => ({ result: this.table.list(now), changed: false }));
  }

  claim(id: string, token: string, now: number): Promise<ClaimOutcome> {
    return this.change(now, () => {
      const outcome = this.table.claim(id, token, now);
      return { result: outcome, changed: outcome.claimed };
    });
  }

  async release(id: string, token: string): Promise<void> {
    await this.change(null, () => ({ result: undefined, changed: this.table.release(id, token) }));
  }

  remove(id: string, token: string): Promise<boolean> {
    return this.change(null, () => {
      const removed = this.table.remove(id, token);
      return { result: removed, changed: removed };
    });
  }

  close(): Promise<void> {
    return this.store.close();
  }

  /** One operation on the table after sweeping what is past keeping; written when either changed anything. */
  private change<T>(now: number | null, operation: () => { result: T; changed: boolean }): Promise<T> {
    return this.store.run(() => {
      const swept = now !== null && this.table.sweep(now);
      const { result, changed } = operation();
      return { result, changed: changed || swept };
    });
  }
}
