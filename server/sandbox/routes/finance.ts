import type { FastifyInstance } from 'fastify';
import type { WithdrawalReviewAnswer, WithdrawalSyncAnswer } from '../../contract/index.js';
import { CALLS, PERMISSIONS } from '../../contract/index.js';
import { badRequest, ok } from '../errors.js';
import type { SandboxStore } from '../store/index.js';
import { adminOf, bodyObject, parseIds } from './common.js';
import { registerListRoutes } from './list-routes.js';

const REVIEW = PERMISSIONS.cashWithdrawalCheck;
const MAX_REASON = 200;

/** The withdrawal review queue (and its pending count, which the gateway polls) and the billing records. */
export function registerFinance(app: FastifyInstance, store: SandboxStore): void {
  app.get(CALLS.withdrawalCount, async () => {
    store.counters.withdrawalCountPolls++;
    return ok(store.pendingWithdrawalCount());
  });

  // SPEC section 7 shows the sync call as a GET; the review page sends a POST. Both work.
  const sync = async () => ok<WithdrawalSyncAnswer>({ synced: store.syncWithdrawals() });
  app.get(CALLS.syncCashWithdrawal, sync);
  app.post(CALLS.syncCashWithdrawal, sync);

  registerListRoutes(app, REVIEW, store.withdrawals, { noun: 'Withdrawal' });

  app.post(`${REVIEW}/approve`, async (request) => {
    const ids = parseIds(bodyObject(request.body));
    return ok<WithdrawalReviewAnswer>({ updated: store.ledger.approve(ids, adminOf(request).account, Date.now()) });
  });

  app.post(`${REVIEW}/reject`, async (request) => {
    const body = bodyObject(request.body);
    const ids = parseIds(body);
    const reason = typeof body.reason === 'string' ? body.reason.trim() : '';
    if (reason === '') throw badRequest('A reason is required to reject a withdrawal');
    if (reason.length > MAX_REASON) throw badRequest(`The reason may be at most ${MAX_REASON} characters`);
    return ok<WithdrawalReviewAnswer>({ updated: store.ledger.reject(ids, adminOf(request).account, reason, Date.now()) });
  });

  registerListRoutes(app, PERMISSIONS.billRecord, store.bills, { noun: 'Bill' });
}
