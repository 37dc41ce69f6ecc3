import type { ListResource } from '../contract/index.js';
import { GatewayError } from '../errors.js';
import { mapAnswer } from './answer.js';
import type { BackendRequest, Bound, CompiledResource, PreparedStep } from './bound.js';
import type { ConsoleCall } from './calls.js';
import type { BackendMap } from './engine.js';
import { KeptStore, type KeptValue } from './kept-store.js';
import { readPointer } from './pointer.js';
import { rowValues } from './set-values.js';
import { fillTemplate } from './template.js';
import { TtlCache } from './ttl-cache.js';
import { WHOLE_LIST_MAX, haystacksOf, itemRow, pageOf, recordItems, sortRows } from './whole-list.js';

/**
 * The gateway's own work for a backend that does less than the console asks (ejabberd's API):
 * lists it answers whole, searched, sorted and paged here (`whole`); values of other calls added
 * to each row shown (`rows`); and what it cannot keep of an action, kept here (`kept`). Each
 * backend answer read is kept a few seconds per session, within a fixed ceiling of rows, so
 * paging through a list of 100,000 accounts asks the backend once.
 */

type Row = Record<string, unknown>;

/** A session as these calls need it: whose cache, whose credentials, who acted. */
export interface ListSession {
  id: string;
  token: string;
  userId: string;
  account?: string;
  kept?: Readonly<Record<string, string>>;
}

/** Sends one backend request for a session; answers its HTTP status and parsed JSON. */
export type SendJson = (request: BackendRequest, session: ListSession) => Promise<{ status: number; json: unknown }>;

export interface GatewayListsOptions {
  /** How long a whole list is reused (ms). */
  wholeTtlMs?: number;
  /** How many rows all kept whole lists may hold together. */
  maxCachedRows?: number;
  /** How long a row's values from other calls are reused (ms). */
  rowTtlMs?: number;
  /** How many rows' values are kept. */
  maxCachedRowValues?: number;
  /** How many per-row calls run at once for one page. */
  rowConcurrency?: number;
  now?: () => number;
}

/**
 * A whole list as kept: its rows in the backend's order, and each order asked for so far with
 * what is made of it once and read by every page: its keyword strings, and the rows as the
 * kept values have them (made again only when those change).
 */
interface WholeRows {
  rows: Row[];
  orders: Map<string, Order>;
}

interface Order {
  rows: Row[];
  haystacks?: string[];
  withKept?: { version: number; rows: readonly Row[] };
}

/** A per-row call's request for one row, made once per row of a kept list, with its cache key. */
interface RowRequest {
  request: BackendRequest;
  key: string;
  /** The cache key with the last session's prefix, kept as one string: its hash is made once. */
  scoped?: { prefix: string; key: string };
}

function scopedKey(made: RowRequest, prefix: string): string {
  if (made.scoped?.prefix !== prefix) made.scoped = { prefix, key: prefix + made.key };
  return made.scoped.key;
}

type Answer = { status: number; body: Row };

const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/** Runs `work` over `items`, at most `limit` at a time. */
async function pooled<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  });
  await Promise.all(lanes);
}

function requestKey(request: BackendRequest): string {
  return `${request.service ?? ''} ${request.method} ${request.path} ${request.body?.text ?? ''}`;
}

export class GatewayLists {
  private readonly whole: TtlCache<WholeRows | Answer>;
  private readonly rowValues: TtlCache<Row | null>;
  private readonly concurrency: number;
  private readonly now: () => number;

  constructor(
    private readonly map: BackendMap,
    private readonly send: SendJson,
    readonly kept: KeptStore,
    options: GatewayListsOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.whole = new TtlCache({
      ttlMs: options.wholeTtlMs ?? 15_000,
      maxWeight: options.maxCachedRows ?? 1_000_000,
      weigh: (value) => ('rows' in value ? value.rows.length : 0),
      keep: (value) => 'rows' in value,
      now: this.now,
    });
    this.rowValues = new TtlCache({
      ttlMs: options.rowTtlMs ?? 30_000,
      maxWeight: options.maxCachedRowValues ?? 20_000,
      now: this.now,
    });
    this.concurrency = options.rowConcurrency ?? 6;
  }

  /** True when the gateway answers this call itself: a whole list, or a detail read out of one. */
  takes(call: ConsoleCall): boolean {
    const compiled = this.map.compiled(call.resource.id);
    if (!compiled || compiled.unsupported || compiled.resource.kind !== 'list') return false;
    if (call.kind === 'list') return compiled.calls.get('list')?.call.whole !== undefined;
    if (call.kind === 'detail') return compiled.calls.get('detail')?.call.fromList === true;
    return false;
  }

  /** A whole list's page, or a detail read out of the whole list. */
  async answer(call: ConsoleCall, query: Row, session: ListSession): Promise<Answer> {
    const compiled = this.map.compiled(call.resource.id)!;
    const resource = compiled.resource as ListResource;
    const listCall = consoleListCall(call);
    const whole = await this.wholeRows(listCall, compiled, session);
    if ('status' in whole) return whole;
    const view = (sort: string): readonly Row[] => this.withKept(resource, this.order(whole, sort));
    if (call.kind === 'list') {
      // Keyword fields are never among those a kept value sets: the order's strings hold for its kept view.
      const haystacks = (sort: string, keys: readonly string[]) => {
        const order = this.order(whole, sort);
        return (order.haystacks ??= haystacksOf(order.rows, keys));
      };
      const page = pageOf(resource, query, view, haystacks);
      const list = await this.enrich(compiled, compiled.calls.get('list')!, page.list, session);
      return { status: 200, body: { code: 200, msg: 'ok', data: { list, total: page.total } } };
    }
    const id = text(query.id);
    const row = view('').find((r) => text(r.id) === id);
    if (!row) return { status: 200, body: { code: 404, msg: `no ${resource.id} record ${id}` } };
    return { status: 200, body: { code: 200, msg: 'ok', data: await this.detail(compiled, row, session) } };
  }

  /**
   * After a write of the gateway's translated calls: the session's kept lists of the resource are
   * read again next time, and an action's kept values are kept or dropped.
   */
  async after(call: ConsoleCall, input: Row, session: ListSession, answer: Answer): Promise<void> {
    if (call.kind === 'list' || call.kind === 'detail') return;
    this.whole.forget(`${session.id}\n${call.resource.id}\n`);
    this.rowValues.forget(`${session.id}\n${call.resource.id}\n`);
    if (call.kind !== 'action' || answer.status >= 400 || answer.body.code !== 200) return;
    const kept = this.map.file.resources?.[call.resource.id]?.kept ?? {};
    const ids = (Array.isArray(input.ids) ? input.ids : [input.id]).map(text).filter((id) => id !== '');
    // A selection answered per id keeps only the ids that went through.
    const done = (answer.body.data as { done?: unknown[] } | undefined)?.done;
    const through = Array.isArray(done) ? done.map(text) : ids;
    for (const [action, rule] of Object.entries(kept)) {
      if (call.action === action) {
        const inputs: Record<string, string> = {};
        for (const name of rule.inputs ?? []) if (typeof input[name] === 'string') inputs[name] = input[name];
        const value: KeptValue = {
          inputs,
          time: new Date(this.now()).toISOString(),
          by: session.account ?? session.userId,
        };
        await this.kept.keep(call.resource.id, through, value);
      } else if (call.action === rule.until) {
        await this.kept.drop(call.resource.id, through);
      }
    }
  }

  private order(whole: WholeRows, sort: string): Order {
    let order = whole.orders.get(sort);
    if (!order) whole.orders.set(sort, (order = { rows: sort === '' ? whole.rows : sortRows(whole.rows, sort) }));
    return order;
  }

  /** The fields kept values set on a record (`on`) and those their end sets (`off`), per rule of the resource. */
  private keptSets(resource: ListResource): { on: Row; off: Row }[] {
    const setsOf = (name: string): Row => ({ ...(resource.actions?.find((a) => a.name === name)?.sets ?? {}) });
    return Object.entries(this.map.file.resources?.[resource.id]?.kept ?? {}).map(([action, rule]) => ({
      on: setsOf(action),
      off: setsOf(rule.until),
    }));
  }

  /**
   * The rows with what the gateway keeps: a kept record reads with the fields its action sets (the
   * rows were made with those its end sets). Only the few kept records are copied, once per
   * change of the kept values, not once per page.
   */
  private withKept(resource: ListResource, order: Order): readonly Row[] {
    const kept = this.kept.idsOf(resource.id);
    if (kept.size === 0) return order.rows;
    const version = this.kept.version;
    if (order.withKept?.version === version) return order.withKept.rows;
    const on = Object.assign({}, ...this.keptSets(resource).map((r) => r.on)) as Row;
    const rows = order.rows.map((row) => (kept.has(text(row.id)) ? { ...row, ...on } : row));
    order.withKept = { version, rows };
    return rows;
  }

  private async wholeRows(
    call: ConsoleCall,
    compiled: CompiledResource,
    session: ListSession,
  ): Promise<WholeRows | Answer> {
    const prepared = this.map.prepare(call, {}, { session });
    if ('unsupported' in prepared)
      throw new GatewayError('UNSUPPORTED_BY_BACKEND', prepared.unsupported, { data: { call: prepared.unsupported } });
    const bound = prepared.bound;
    const whole = bound.call.whole ?? {};
    const max = whole.max ?? WHOLE_LIST_MAX;
    const key = `${session.id}\n${compiled.resource.id}\n${requestKey(prepared.request)}`;
    return this.whole.get(key, async (): Promise<WholeRows | Answer> => {
      const { status, json } = await this.send(prepared.request, session);
      const checked = mapAnswer({ ...prepared, name: 'whole' }, status, {}, json);
      // A refusal reaches every caller sharing this read, and is not kept (the cache keeps lists only).
      if (checked.body.code !== 200) return checked;
      const found = readPointer(json, bound.list);
      const list = whole.items
        ? recordItems(found, whole.items, prepared.request.path)
        : found === null || found === undefined
          ? []
          : found;
      if (!Array.isArray(list))
        throw new GatewayError('UPSTREAM_BAD_ANSWER', `${prepared.request.path}: the whole list is not an array`);
      if (list.length > max)
        throw new GatewayError(
          'UPSTREAM_BAD_ANSWER',
          `${prepared.request.path}: ${list.length} rows, more than the ${max} the gateway pages`,
        );
      // Every row starts as a record without a kept value reads (a user not banned); kept ones are set per page.
      const off = Object.assign({}, ...this.keptSets(compiled.resource as ListResource).map((r) => r.off)) as Row;
      const prefix = whole.prefix;
      const items = prefix === undefined ? list : list.filter((i) => typeof i === 'string' && i.startsWith(prefix));
      const mapped = items.map((item) => {
        const row = itemRow(item, whole.item);
        const fields =
          typeof row === 'object' && row !== null && !Array.isArray(row) ? compiled.fields.fromBackend(row as Row) : {};
        return { ...fields, ...off };
      });
      return { rows: mapped, orders: new Map() };
    });
  }

  /**
   * The rows with the values of the call's per-row calls. Values still kept are added at once;
   * only the others are asked for, at most `concurrency` at a time.
   */
  private async enrich(compiled: CompiledResource, bound: Bound, rows: Row[], session: ListSession): Promise<Row[]> {
    if (bound.rows.length === 0) return rows;
    const prefix = `${session.id}\n${compiled.resource.id}\n`;
    const out: Row[] = [];
    const missing: { row: Row; part: Bound; made: RowRequest }[] = [];
    for (const source of rows) {
      const requests = this.rowRequestsOf(bound, source);
      // The row is copied key by key with its kept values: Object.assign onto a spread copy cost
      // about 1 KB of garbage per row (a new backing store per added key).
      const row: Row = {};
      for (const key in source) row[key] = source[key];
      for (let i = 0; i < bound.rows.length; i++) {
        const made = requests[i];
        if (!made) continue;
        const values = this.rowValues.peek(scopedKey(made, prefix));
        if (values === undefined) missing.push({ row, part: bound.rows[i]!, made });
        else if (values) for (const key in values) row[key] = values[key];
      }
      out.push(row);
    }
    await pooled(missing, this.concurrency, async ({ row, part, made }) => {
      const values = await this.rowCall(compiled, part, made, session);
      if (values) Object.assign(row, values);
    });
    return out;
  }

  /** A row's per-row requests (null where the row lacks a placeholder), made once per kept row object. */
  private readonly madeRequests = new WeakMap<Row, Map<Bound, (RowRequest | null)[]>>();
  private rowRequestsOf(bound: Bound, row: Row): (RowRequest | null)[] {
    let byBound = this.madeRequests.get(row);
    if (!byBound) this.madeRequests.set(row, (byBound = new Map()));
    let made = byBound.get(bound);
    if (!made) {
      made = bound.rows.map((part) => {
        const request = rowRequest(part, row);
        return request ? { request, key: requestKey(request) } : null;
      });
      byBound.set(bound, made);
    }
    return made;
  }

  /** A detail out of the whole list: the row, its per-row calls' values and relations, and what the gateway keeps of it. */
  private async detail(compiled: CompiledResource, row: Row, session: ListSession): Promise<Row> {
    const bound = compiled.calls.get('detail')!;
    const record: Row = { ...row };
    const related: Row = {};
    const requests = this.rowRequestsOf(bound, row);
    await pooled(bound.rows, this.concurrency, async (part, i) => {
      const made = requests[i];
      const values = made ? await this.rowCall(compiled, part, made, session) : null;
      if (!values) return;
      for (const [key, value] of Object.entries(values)) {
        if (part.relations.some((r) => r.key === key)) related[key] = value;
        else record[key] = value;
      }
    });
    const data: Row = {};
    if (bound.recordAs === null || bound.recordAs.length === 0) Object.assign(data, record);
    else data[bound.recordAs[0]!] = record;
    Object.assign(data, related);
    for (const [, rule] of Object.entries(this.map.file.resources?.[compiled.resource.id]?.kept ?? {})) {
      const kept = this.kept.get(compiled.resource.id, text(row.id));
      if (kept) data[rule.as] = { ...kept.inputs, time: kept.time, by: kept.by };
    }
    return data;
  }

  /** One per-row call for one row: its `set` values (mapped through the fields) and relations; null when it failed. */
  private async rowCall(
    compiled: CompiledResource,
    part: Bound,
    made: RowRequest,
    session: ListSession,
  ): Promise<Row | null> {
    const { request } = made;
    const key = scopedKey(made, `${session.id}\n${compiled.resource.id}\n`);
    return this.rowValues.get(key, async () => {
      try {
        const { status, json } = await this.send(request, session);
        const step: PreparedStep = {
          call: { method: 'POST', kind: 'own' },
          name: 'row',
          bound: part,
          fields: compiled.fields,
          request,
        };
        if (mapAnswer(step, status, {}, json).body.code !== 200) return null;
        return rowValues(part, compiled.fields, readPointer(json, part.envelope.data));
      } catch (error) {
        // A backend that is down fails the page's own read; one row's extra value only goes missing.
        if (
          error instanceof GatewayError &&
          (error.errorName === 'UPSTREAM_UNREACHABLE' || error.errorName === 'UPSTREAM_TIMEOUT')
        )
          throw error;
        return null;
      }
    });
  }
}

/** The console's list call of a resource (a detail's whole list is the list call's). */
function consoleListCall(call: ConsoleCall): ConsoleCall {
  return call.kind === 'list' ? call : { ...call, kind: 'list', method: 'GET' };
}

/** The request of a per-row call: placeholders (in the path and template) name the row's console keys. */
function rowRequest(part: Bound, row: Row): BackendRequest | null {
  let path = part.path;
  for (const name of part.placeholders) {
    const value = row[name];
    if (value === undefined || value === null || value === '') return null;
    path = path.replace(`{${name}}`, encodeURIComponent(text(value)));
  }
  const body = part.call.template === undefined ? {} : fillTemplate(part.call.template, (name) => row[name]);
  return {
    method: part.method,
    path,
    body: { contentType: 'application/json', text: JSON.stringify(body ?? {}) },
    ...(part.service === null ? {} : { service: part.service }),
  };
}
