import type { FastifyInstance } from 'fastify';
import type { WithdrawalSyncAnswer } from '../../server/contract/index.js';
import { CALLS } from '../../server/contract/index.js';
import { ok } from '../errors.js';
import type { SandboxStore } from '../store/sandbox-store.js';

/**
 * The withdrawal calls outside the resource contract: the pending count the gateway polls, and
 * the sync call as a GET (the chat backend's own form of it; the review page's POST is a resource action).
 */
export function registerFinance(
  app: FastifyInstance,
  store: SandboxStore,
  countPath: string = CALLS.withdrawalCount,
): void {
  app.get(countPath, async () => {
    store.counters.withdrawalCountPolls++;
    return ok(store.pendingWithdrawalCount());
  });

  app.get(CALLS.syncCashWithdrawal, async () => ok<WithdrawalSyncAnswer>({ synced: store.syncWithdrawals() }));
}
