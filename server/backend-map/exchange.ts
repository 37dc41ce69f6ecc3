import type { RawAnswer } from '../lib/upstream.js';
import type { BackendRequest, Prepared, PreparedStep } from './bound.js';
import { mapAnswer, redirectAnswer } from './answer.js';
import { dayRows, daysAreRows, rowsData } from './days.js';
import type { Plan } from './plan.js';
import { sendPlanned, type OneAnswer } from './plan-run.js';
import { parsePointer, readPointer } from './pointer.js';

/**
 * Sending a prepared console call: its backend call (or every request of its plan: one per id, one
 * per generated code, a read before a save), then each of its `also` calls, in order, the answers
 * mapped and merged into the console's one answer. Shared by the gateway (which sends to
 * the service a call names) and the probe, so both read a backend the same way.
 */

type Row = Record<string, unknown>;

/** The console's answer: HTTP status and the {code, msg, data} body. */
export interface MappedAnswer {
  status: number;
  body: Row;
}

/** How a call reaches the backend: send it (to its service), then read its answer's JSON (decoded). */
export interface Transport {
  send(request: BackendRequest): Promise<RawAnswer>;
  read(answer: RawAnswer, request: BackendRequest): Promise<unknown>;
}

/** One request, to its service, mapped; the backend's JSON kept for a merged save's read. */
async function one(step: PreparedStep, transport: Transport): Promise<OneAnswer> {
  const raw = await transport.send(step.request);
  const redirected = redirectAnswer(step, raw.status);
  if (redirected) return redirected;
  const json = await transport.read(raw, step.request);
  return { ...mapAnswer(step, raw.status, raw.headers, json), json };
}

/** The console's answer alone: the backend's JSON stays inside the gateway. */
function withoutJson(answer: OneAnswer): MappedAnswer {
  return { status: answer.status, body: answer.body };
}

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One console answer of several: statistics rows merged by day (every series of every call, zero
 * where a call had no count); records merged member by member, a later call's members over an
 * earlier's (a settings form read from two calls, figures from several).
 */
function merge(steps: readonly PreparedStep[], answers: readonly MappedAnswer[]): MappedAnswer {
  const first = steps[0]!;
  const datas = answers.map((a) => a.body.data);
  let data: unknown;
  if (daysAreRows(first.name) && steps.some((s) => s.bound.days.length > 0)) {
    const keys = [...new Set(steps.flatMap((s) => s.bound.days.map((d) => d.key)))];
    const lists = datas.map(
      (d) =>
        new Map(((isRow(d) && Array.isArray(d.list) ? d.list : []) as Row[]).map((row) => [String(row.date), row])),
    );
    const range = first.range ?? null;
    data = rowsData(first.name, dayRows(lists, keys, range), range);
  } else if (datas.some(isRow)) {
    data = Object.assign({}, ...datas.filter(isRow));
  } else {
    data = datas.find((d) => d !== undefined);
  }
  const { status, body } = answers[0]!;
  return { status, body: { ...body, ...(data === undefined ? {} : { data }) } };
}

type Lookup = NonNullable<PreparedStep['bound']['call']['lookup']>;

/**
 * `lookup`: the rows' field replaced by the member `take` of the record whose `match` equals it,
 * read with one more call. An answer without the list (a refusal) leaves every such field null,
 * never the raw key; a call that cannot be made fails the list as its own call would.
 */
async function lookUp(lookup: Lookup, answer: MappedAnswer, transport: Transport): Promise<void> {
  const data = answer.body.data;
  const rows = isRow(data) && Array.isArray(data.list) ? (data.list as unknown[]).filter(isRow) : [];
  if (rows.length === 0) return;
  const query = new URLSearchParams(Object.entries(lookup.extra ?? {}).map(([k, v]) => [k, String(v)])).toString();
  const request: BackendRequest = { method: 'GET', path: query ? `${lookup.path}?${query}` : lookup.path };
  const json = await transport.read(await transport.send(request), request);
  const found = readPointer(json, parsePointer(lookup.list));
  const records = Array.isArray(found) ? found.filter(isRow) : [];
  const byKey = new Map(records.map((r) => [String(r[lookup.match]), r[lookup.take] ?? null]));
  for (const row of rows) {
    const key = row[lookup.field];
    if (key === undefined || key === null || key === '') continue;
    row[lookup.field] = byKey.get(String(key)) ?? null;
  }
}

/**
 * Sends the call and its `also` calls one after the other: the first refusal is the console's
 * answer and the calls after it are not made (a settings save over two calls is not atomic: what
 * the calls before it wrote stays written).
 */
export async function exchange(
  prepared: Extract<Prepared, { bound: unknown }> & { plan?: Plan },
  transport: Transport,
): Promise<MappedAnswer> {
  const { plan, also, ...step } = prepared;
  // Each request of a plan goes through `one` too, so it reaches its call's service like any other.
  const first = plan
    ? await sendPlanned({ ...step, plan }, (s) => one(s, transport))
    : withoutJson(await one(step, transport));
  const rest = also ?? [];
  if (step.bound.call.lookup && step.name === 'list' && first.body.code === 200)
    await lookUp(step.bound.call.lookup, first, transport);
  if (rest.length === 0 || first.body.code !== 200) return first;
  const answers = [first];
  for (const part of rest) {
    const answer = withoutJson(await one(part, transport));
    if (answer.body.code !== 200) return answer;
    answers.push(answer);
  }
  return merge([step, ...rest], answers);
}
