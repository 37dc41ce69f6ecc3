import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  SUCCESS_CODE,
  WITHDRAWAL_STATES,
  resourceCalls,
  type ApprovalChange,
  type SettingsResource,
} from '../contract/index.js';
import { GatewayError } from '../errors.js';
import type { Session } from '../session/plugin.js';
import { callAsSession, type ContractAnswer } from './backend.js';
import type { HeldRoute } from './held-calls.js';
import { actionSubject, settingsSubject, type Hold } from './hold.js';

type Row = Record<string, unknown>;

/** Hold it; let it go to the backend as it is; or answer with what the backend said when asked. */
export type Decision = { hold: Hold } | { pass: true } | { answer: ContractAnswer };

export interface DecideContext {
  app: FastifyInstance;
  request: FastifyRequest;
  session: Session;
  now: number;
  /** DUAL_CONTROL_ABOVE, smallest unit. */
  above: number | null;
  ttlMs: number;
}

const READS_AT_ONCE = 4;

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The withdrawal states known to be settled. Any other state, one a backend map left untranslated
 * (`PENDING`, `1`) included, counts as pending: an unknown word must never let a large approval by.
 */
const SETTLED_STATES: ReadonlySet<unknown> = new Set(WITHDRAWAL_STATES.filter((state) => state !== 'pending'));

function newHold(
  ctx: DecideContext,
  fields: Omit<Hold, 'id' | 'requestedBy' | 'requestedByName' | 'requestedAt' | 'expiresAt'>,
): Hold {
  return {
    id: randomUUID(),
    requestedBy: ctx.session.userId,
    // Who the second approver is told asked: the account typed at login, from the sealed session.
    requestedByName: ctx.session.account ?? null,
    requestedAt: ctx.now,
    expiresAt: ctx.now + ctx.ttlMs,
    ...fields,
  };
}

async function readAll<T>(items: readonly string[], read: (item: string) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array<T>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      out[at] = await read(items[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, items.length) }, worker));
  return out;
}

/**
 * A withdrawal approval: each withdrawal is read first (GET detail, as the approver), and the call
 * is held when one still pending is above DUAL_CONTROL_ABOVE. Withdrawals no longer pending go on
 * to the backend, which answers them as it does. What the gateway cannot read it does not guess:
 * the backend's refusal of the read is the answer, and nothing is approved.
 */
export async function decideAction(
  ctx: DecideContext,
  route: Extract<HeldRoute, { kind: 'action' }>,
  body: Row,
  targets: readonly string[],
): Promise<Decision> {
  if (targets.length === 0 || ctx.above === null) return { pass: true };
  const above = ctx.above;
  const detail = resourceCalls(route.resource).detail;
  const answers = await readAll(targets, (id) =>
    callAsSession(ctx.app, ctx.request, ctx.session, 'GET', detail, { id }),
  );
  const refused = answers.find((a) => a.body.code !== SUCCESS_CODE || !isRow(a.body.data));
  if (refused) return { answer: refused };
  const records = answers.map((a) => a.body.data as Row);
  const amountOf = (record: Row) => (typeof record.amount === 'number' ? record.amount : Number(record.amount));
  // Only a state known to be settled lets a large approval through unheld (the backend then refuses
  // it itself); a missing or unknown one counts as pending.
  const pending = (record: Row) => !SETTLED_STATES.has(record.state);
  const unreadable = records.find((r) => pending(r) && !Number.isFinite(amountOf(r)));
  if (unreadable)
    throw new GatewayError(
      'UPSTREAM_BAD_ANSWER',
      `withdrawal ${String(unreadable.id)} has no readable amount, so the gateway cannot tell whether it needs a second approver`,
    );
  if (!records.some((r) => pending(r) && amountOf(r) > above)) return { pass: true };
  return {
    hold: newHold(ctx, {
      subject: actionSubject(route.resource.id, route.action, targets),
      kind: 'action',
      resource: route.resource.id,
      action: route.action,
      permission: route.resource.permission,
      targets: [...targets],
      records,
      changes: [],
      before: null,
      call: { method: 'POST', path: route.path, body },
    }),
  };
}

/**
 * A settings save: the settings are read first (GET config, as the saver), so the confirmer sees
 * each changed field before and after. A save that changes nothing goes on unheld.
 */
export async function decideSettings(
  ctx: DecideContext,
  route: Extract<HeldRoute, { kind: 'settings' }>,
  body: Row,
): Promise<Decision> {
  const answer = await callAsSession(ctx.app, ctx.request, ctx.session, 'GET', route.path, {});
  if (answer.body.code !== SUCCESS_CODE || !isRow(answer.body.data)) return { answer };
  const before = answer.body.data as Row;
  const changes = settingsChanges(route, before, body);
  if (changes.length === 0) return { pass: true };
  return {
    hold: newHold(ctx, {
      subject: settingsSubject(route.resource.id),
      kind: 'settings',
      resource: route.resource.id,
      action: null,
      permission: route.resource.permission,
      targets: [],
      records: [],
      changes,
      before,
      call: { method: 'POST', path: route.path, body },
    }),
  };
}

/**
 * The fields a save changes, members the screen does not declare included (a crafted save must
 * show everything it would change). A password is a change when a new one is sent (an empty one
 * keeps the old; a value of any other type counts too), and its values are never kept for showing.
 */
export function settingsChanges(
  route: Extract<HeldRoute, { kind: 'settings' }>,
  before: Row,
  body: Row,
): ApprovalChange[] {
  const secrets = new Set(route.resource.fields.filter((f) => f.kind === 'password').map((f) => f.key));
  const changes: ApprovalChange[] = [];
  for (const [key, after] of Object.entries(body)) {
    if (secrets.has(key)) {
      // Empty (or cleared) keeps the old secret; anything else, in any type, replaces it.
      if (after !== '' && after !== null && after !== undefined)
        changes.push({ key, before: null, after: null, secret: true });
      continue;
    }
    if (!same(before[key], after)) changes.push({ key, before: before[key] ?? null, after, secret: false });
  }
  return changes;
}

/**
 * Whether the settings changed since the save was held, in a field the held save sends: confirming
 * it would then undo someone else's newer change. Passwords are not compared (never read back).
 */
export function changedSince(resource: SettingsResource, hold: Hold, current: Row): string[] {
  const secrets = new Set(resource.fields.filter((f) => f.kind === 'password').map((f) => f.key));
  const before = hold.before ?? {};
  return Object.keys(hold.call.body).filter((key) => !secrets.has(key) && !same(before[key], current[key]));
}
