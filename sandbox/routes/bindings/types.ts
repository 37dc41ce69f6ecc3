import type { AdminAccount } from '../../store/accounts.js';
import type { Collection, Identified } from '../../store/collection.js';
import type { SandboxStore } from '../../store/sandbox-store.js';

/** What a resource does in the sandbox beyond storing rows: the bindings routes/resources.ts serves. */

type Row = Record<string, unknown>;

export interface Ctx {
  store: SandboxStore;
  admin: AdminAccount;
  ip: string;
  now: number;
}

export interface ActionCall {
  /** The targeted rows' ids; null for a page action. */
  ids: number[] | null;
  inputs: Record<string, unknown>;
  ctx: Ctx;
}

export type ActionHandler = (call: ActionCall) => unknown;

export interface ListBinding<T extends Identified = Identified> {
  collection: Collection<T>;
  /** The row as answered (secrets left out); the stored row when absent. */
  wire?(item: T): Row;
  /** Derives read-only fields from the form and refuses what the form rules cannot see (an unknown account). */
  prepare?(values: Row, ctx: Ctx, existing: T | null): void;
  create?(values: Row, ctx: Ctx): T;
  update?(item: T, values: Row, ctx: Ctx): void;
  remove?(ids: number[], ctx: Ctx): number;
  detail?(item: T, ctx: Ctx): unknown;
  /** Brings time-driven fields up to date before a read (a broadcast's delivered count). */
  refresh?(now: number): void;
  preview?(query: Row, ctx: Ctx): unknown;
  actions?: Record<string, ActionHandler>;
}

export interface SettingsBinding {
  actions?: Record<string, ActionHandler>;
  /** Checks across fields (a minimum above a maximum) on the object as it would be saved. */
  check?(next: Row): void;
  afterSave?(values: Row, ctx: Ctx): void;
}

export interface StatisticsBinding {
  rows(from: number, to: number, dimension: string | null, now: number): Row[];
}

export interface OperationBinding {
  preview(inputs: Row, ctx: Ctx): unknown;
  run(inputs: Row, ctx: Ctx): unknown;
}

export interface Bindings {
  list: Record<string, ListBinding<never>>;
  settings: Record<string, SettingsBinding>;
  statistics: Record<string, StatisticsBinding>;
  operation: Record<string, OperationBinding>;
}

/** Keeps a binding's row type while storing it in the by-id map. */
export function listBinding<T extends Identified>(binding: ListBinding<T>): ListBinding<never> {
  return binding as unknown as ListBinding<never>;
}
