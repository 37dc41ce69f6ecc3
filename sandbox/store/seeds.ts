import { DISTRIBUTION_ADDRESSES, FREQUENCY_LIMITS } from '../../server/contract/index.js';
import type { Prng } from '../lib/prng.js';
import { seedDistributionAddresses, seedFrequencyLimits } from './seed-operation.js';
import type { GroupRecord, UserRecord } from './types.js';

/**
 * The starting rows of the list resources the sandbox serves from their declaration alone (no
 * binding of their own, no named table in the store), by resource id. A resource without a seed
 * starts empty. Each seed draws from a stream of its own (the store's seed mixed with the resource id), so adding or
 * removing one never changes the data of the others.
 */

export interface SeedContext {
  prng: Prng;
  /** The moment the seeded history ends. */
  now: number;
  users: readonly UserRecord[];
  groups: readonly GroupRecord[];
}

/** Rows in wire shape, ids included (1, 2, ... by convention). */
export type Seed = (context: SeedContext) => readonly ({ id: number } & Record<string, unknown>)[];

export const SEEDS: Readonly<Record<string, Seed>> = {
  [FREQUENCY_LIMITS.id]: () => seedFrequencyLimits(),
  [DISTRIBUTION_ADDRESSES.id]: () => seedDistributionAddresses(),
};
