import { SnapshotFile } from '../lib/snapshot-file.js';

/**
 * What a backend cannot keep of an action, kept by the gateway: ejabberd 23.01's `ban_account`
 * keeps no reason and no time, and has no call that says whether an account is banned. The
 * gateway keeps, per resource and record, the action's inputs, its time and the administrator's
 * account, until the action that ends it (an unban). In memory, written whole to
 * `kept-values.json` in DATA_DIR after each change so a restart keeps it. Bounded: at most
 * KEPT_MAX_RECORDS records of at most a few hundred bytes each; past that the oldest goes first.
 */

export interface KeptValue {
  /** The action's kept inputs (a ban's reason). */
  inputs: Record<string, string>;
  /** When the action succeeded (ISO). */
  time: string;
  /** Who ran it: the administrator's account. */
  by: string;
}

export const KEPT_MAX_RECORDS = 10_000;
const MAX_INPUT_CHARS = 500;

type Table = Map<string, Map<string, KeptValue>>;
const EMPTY: ReadonlyMap<string, KeptValue> = new Map();

function isKept(value: unknown): value is KeptValue {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as KeptValue;
  return (
    typeof v.time === 'string' &&
    typeof v.by === 'string' &&
    typeof v.inputs === 'object' &&
    v.inputs !== null &&
    Object.values(v.inputs).every((i) => typeof i === 'string')
  );
}

export class KeptStore {
  private readonly table: Table = new Map();
  private count = 0;
  private changes = 0;
  private readonly file: SnapshotFile | null;

  /** `dir`: DATA_DIR; null keeps the values in memory only (tests, a read-only disk). */
  constructor(dir: string | null) {
    this.file =
      dir === null
        ? null
        : new SnapshotFile({
            dir,
            name: 'kept-values.json',
            holds: 'values the gateway keeps for the backend',
            load: (snapshot) => this.load(snapshot),
            snapshot: () => ({
              version: 1,
              resources: Object.fromEntries([...this.table].map(([id, records]) => [id, Object.fromEntries(records)])),
            }),
          });
  }

  private load(snapshot: unknown): void {
    const resources = (snapshot as { version?: unknown; resources?: unknown })?.resources;
    if ((snapshot as { version?: unknown })?.version !== 1 || typeof resources !== 'object' || resources === null)
      throw new Error('not a file of kept values');
    for (const [resource, records] of Object.entries(resources as Record<string, unknown>)) {
      if (typeof records !== 'object' || records === null) continue;
      for (const [id, value] of Object.entries(records as Record<string, unknown>))
        if (isKept(value)) this.place(resource, id, value);
    }
  }

  async open(): Promise<void> {
    await this.file?.open();
  }

  async close(): Promise<void> {
    await this.file?.close();
  }

  get(resource: string, id: string): KeptValue | undefined {
    return this.table.get(resource)?.get(id);
  }

  /** The ids with a kept value (a live view: do not change it). */
  idsOf(resource: string): ReadonlySet<string> | ReadonlyMap<string, KeptValue> {
    return this.table.get(resource) ?? EMPTY;
  }

  has(resource: string, id: string): boolean {
    return this.table.get(resource)?.has(id) ?? false;
  }

  /** Grows with every change: a view made over the kept values is current while this is the same. */
  get version(): number {
    return this.changes;
  }

  private place(resource: string, id: string, value: KeptValue): void {
    this.changes++;
    let records = this.table.get(resource);
    if (!records) this.table.set(resource, (records = new Map()));
    if (!records.delete(id)) this.count++;
    records.set(id, value);
    while (this.count > KEPT_MAX_RECORDS) {
      // The oldest record of the fullest resource goes: insertion order is age.
      const fullest = [...this.table.values()].reduce((a, b) => (b.size > a.size ? b : a));
      const oldest = fullest.keys().next().value as string;
      fullest.delete(oldest);
      this.count--;
    }
  }

  async keep(resource: string, ids: readonly string[], value: KeptValue): Promise<void> {
    const bounded: KeptValue = {
      time: value.time,
      by: value.by.slice(0, 256),
      inputs: Object.fromEntries(Object.entries(value.inputs).map(([k, v]) => [k, v.slice(0, MAX_INPUT_CHARS)])),
    };
    const change = () => {
      for (const id of ids) this.place(resource, id, bounded);
      return { result: undefined, changed: true };
    };
    if (this.file) await this.file.run(change);
    else change();
  }

  async drop(resource: string, ids: readonly string[]): Promise<void> {
    const change = () => {
      let changed = false;
      const records = this.table.get(resource);
      for (const id of ids) {
        if (records?.delete(id)) {
          this.count--;
          this.changes++;
          changed = true;
        }
      }
      return { result: undefined, changed };
    };
    if (this.file) await this.file.run(change);
    else change();
  }
}
