import { GatewayError } from '../errors.js';
import type { Bound, Prepared } from './bound.js';
import type { Plan } from './plan.js';
import { readPointer } from './pointer.js';

type Row = Record<string, unknown>;
type Ready = Extract<Prepared, { bound: Bound }>;

/** One request's answer in the console's envelope, and the backend's JSON it was read from (absent: a redirect). */
export interface OneAnswer {
  status: number;
  body: Row;
  json?: unknown;
}

/** Sends one prepared request and maps its answer (the gateway's own send, or the probe's). */
export type SendOne = (prepared: Ready) => Promise<OneAnswer>;

/** A request of a plan the backend refused: whose (an id, or the code it carried), with the console's code and message. */
export interface PlanRefusal {
  id?: unknown;
  code: number;
  msg: string;
}

const succeeded = (answer: OneAnswer) => answer.status < 400 && answer.body.code === 200;

function refusalOf(answer: OneAnswer): Omit<PlanRefusal, 'id'> {
  const code = typeof answer.body.code === 'number' ? answer.body.code : 500;
  return { code, msg: typeof answer.body.msg === 'string' ? answer.body.msg : `refused (code ${code})` };
}

/**
 * A thrown request (the backend unreachable, an unreadable answer) is that request's refusal once
 * another has gone through; before that it is the call's, as it would be for a single request.
 */
function thrownRefusal(error: unknown, anyDone: boolean): Omit<PlanRefusal, 'id'> {
  if (!anyDone) throw error;
  if (error instanceof GatewayError) return { code: error.status, msg: error.message };
  return { code: 500, msg: error instanceof Error ? error.message : String(error) };
}

/**
 * One request per id: every id is tried, in order, whatever the others' answers. All through:
 * `{code: 200, data: {done}}`. Any refused: the first refusal's code, a message counting them, and
 * `data: {done, refused: [{id, code, msg}]}`, so the console reports each id on its own (HTTP 200:
 * the answer is the console's envelope either way).
 */
async function sendEach(
  prepared: Ready,
  plan: Extract<Plan, { kind: 'each' }>,
  send: SendOne,
): Promise<{ status: number; body: Row }> {
  const done: unknown[] = [];
  const refused: PlanRefusal[] = [];
  for (let i = 0; i < plan.requests.length; i++) {
    const id = plan.ids[i];
    try {
      let answer = await send({ ...prepared, request: plan.requests[i]! });
      // The id's further calls (`also`), in order; the first refusal is the id's.
      for (const step of plan.then?.[i] ?? []) {
        if (!succeeded(answer)) break;
        answer = await send(step);
      }
      if (succeeded(answer)) done.push(id);
      else refused.push({ id, ...refusalOf(answer) });
    } catch (error) {
      refused.push({ id, ...thrownRefusal(error, done.length > 0 || refused.length > 0) });
    }
  }
  if (refused.length === 0) return { status: 200, body: { code: 200, msg: 'ok', data: { done } } };
  const first = refused[0]!;
  const msg = `${refused.length} of ${plan.ids.length} refused: ${first.msg}`;
  return { status: 200, body: { code: first.code, msg, data: { done, refused } } };
}

/**
 * One request per generated code, in turn; the first refusal stops the rest (the next would meet
 * the same rule). All made: `{code: 200, data: {codes}}`. Some: the refusal's code, a message
 * counting what was made, and `data: {codes, refused: [{code, msg}]}` with the codes that exist.
 */
async function sendRepeat(
  prepared: Ready,
  plan: Extract<Plan, { kind: 'repeat' }>,
  send: SendOne,
): Promise<{ status: number; body: Row }> {
  const codes: string[] = [];
  for (let i = 0; i < plan.requests.length; i++) {
    let refusal: Omit<PlanRefusal, 'id'>;
    try {
      const answer = await send({ ...prepared, request: plan.requests[i]! });
      if (succeeded(answer)) {
        codes.push(plan.codes[i]!);
        continue;
      }
      // Nothing made yet: the backend's own answer, as a single request would have it.
      if (codes.length === 0) return { status: answer.status, body: answer.body };
      refusal = refusalOf(answer);
    } catch (error) {
      refusal = thrownRefusal(error, codes.length > 0);
    }
    const msg = `${codes.length} of ${plan.codes.length} made: ${refusal.msg}`;
    return { status: 200, body: { code: refusal.code, msg, data: { codes, refused: [refusal] } } };
  }
  return { status: 200, body: { code: 200, msg: 'ok', data: { codes } } };
}

/** The settings read first; its record, as the backend wrote it, lies under the console's changes. */
async function sendMerge(
  prepared: Ready,
  plan: Extract<Plan, { kind: 'merge' }>,
  send: SendOne,
): Promise<{ status: number; body: Row }> {
  const read = await send(plan.read);
  if (!succeeded(read)) return { status: read.status, body: read.body };
  const bound = plan.read.bound;
  const record = readPointer(read.json, [...bound.envelope.data, ...bound.record]);
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new GatewayError(
      'UPSTREAM_BAD_ANSWER',
      `${plan.read.request.path.split('?')[0]}: no settings record to save the changes over`,
    );
  }
  const answer = await send({ ...prepared, request: plan.request(record as Row) });
  return { status: answer.status, body: answer.body };
}

/** Sends a prepared call: its one request, or every request of its plan. */
export async function sendPlanned(
  prepared: Ready & { plan?: Plan },
  send: SendOne,
): Promise<{ status: number; body: Row }> {
  const { plan, ...one } = prepared;
  if (!plan) {
    const answer = await send(one);
    return { status: answer.status, body: answer.body };
  }
  if (plan.kind === 'each') return sendEach(one, plan, send);
  if (plan.kind === 'repeat') return sendRepeat(one, plan, send);
  return sendMerge(one, plan, send);
}
