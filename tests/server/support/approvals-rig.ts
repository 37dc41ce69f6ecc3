import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import {
  APPROVAL_CALLS,
  WITHDRAWAL_REVIEW,
  resourceCalls,
  type ApprovalView,
  type WithdrawalRecord,
} from '../../../server/contract/index.js';
import type { ApprovalEvent } from '../../../server/approvals/events.js';
import { SANDBOX_AES_KEY_TEXT } from '../../../sandbox/key.js';
import type { StartedSandbox } from '../../../sandbox/start.js';
import { SAME_ORIGIN, writeFakeUi } from './gateway.js';
import { logInInject } from '../../support/login.js';

/**
 * Gateways with dual control in front of a sandbox backend, driven through inject as a browser
 * would: log in as the sandbox's accounts, approve, list, confirm and decline. Each gateway records
 * the approval events its plugin emits.
 */

export const REVIEW = resourceCalls(WITHDRAWAL_REVIEW);
export const PASSWORDS = { admin: 'admin123', operator: 'operator123', checker: 'checker123' } as const;
export type Who = keyof typeof PASSWORDS;
export type Cookies = Record<string, string>;
export type Envelope = { code: number; msg: string; data?: unknown; error?: string };

export interface ApprovalGateway {
  app: FastifyInstance;
  events: ApprovalEvent[];
  dataDir: string;
}

export function tempDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'gw-approvals-'));
}

export async function approvalGateway(
  sandbox: StartedSandbox,
  env: Record<string, string> = {},
  options: { now?: () => number; dataDir?: string } = {},
): Promise<ApprovalGateway> {
  const dataDir = options.dataDir ?? tempDataDir();
  const config = loadConfig({
    CHAT_BACKEND_URL: sandbox.url,
    RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
    DATA_DIR: dataDir,
    UI_DIR: writeFakeUi(),
    DUAL_CONTROL_ABOVE: '100000',
    ...env,
  });
  const app = await buildApp({ config, logger: false, ...(options.now ? { now: options.now } : {}) });
  const events: ApprovalEvent[] = [];
  app.approvals.onApprovalEvent.push((event) => {
    events.push(event);
  });
  return { app, events, dataDir };
}

export function logIn(app: FastifyInstance, who: Who): Promise<Cookies> {
  return logInInject(app, { account: who, password: PASSWORDS[who] });
}

export async function post(
  app: FastifyInstance,
  cookies: Cookies,
  url: string,
  payload: unknown = {},
): Promise<{ status: number; body: Envelope }> {
  const res = await app.inject({ method: 'POST', url, headers: SAME_ORIGIN, cookies, payload: payload as object });
  return { status: res.statusCode, body: res.json<Envelope>() };
}

export async function get(
  app: FastifyInstance,
  cookies: Cookies,
  url: string,
): Promise<{ status: number; body: Envelope }> {
  const res = await app.inject({ method: 'GET', url, cookies });
  return { status: res.statusCode, body: res.json<Envelope>() };
}

export async function approvals(app: FastifyInstance, cookies: Cookies): Promise<ApprovalView[]> {
  const { status, body } = await get(app, cookies, APPROVAL_CALLS.list);
  expect(status, JSON.stringify(body)).toBe(200);
  return (body.data as { list: ApprovalView[] }).list;
}

/** A new pending application of `amount` (smallest unit), by a user topped up first when nobody can afford it. */
export function applyWithdrawal(sandbox: StartedSandbox, amount: number): WithdrawalRecord {
  const store = sandbox.app.sandbox;
  const normal = store.users.all().filter((u) => u.status === 'normal');
  let user = normal.find((u) => u.balance >= amount);
  if (!user) {
    user = normal[0]!;
    store.ledger.post(user, 'recharge', amount, Date.now(), 'Online recharge');
  }
  return store.ledger.applyWithdrawal(user, amount, Date.now());
}

export function withdrawal(sandbox: StartedSandbox, id: number): WithdrawalRecord {
  const record = sandbox.app.sandbox.withdrawals.get(id);
  if (!record) throw new Error(`no withdrawal ${id}`);
  return record;
}

export const approve = (app: FastifyInstance, cookies: Cookies, id: number) =>
  post(app, cookies, REVIEW.action('approve'), { id });

/** The approval id of a held answer; fails the test when the call was not held. */
export function heldId(answer: { status: number; body: Envelope }): string {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.data, JSON.stringify(answer.body)).toMatchObject({ held: true });
  return (answer.body.data as { approvalId: string }).approvalId;
}
