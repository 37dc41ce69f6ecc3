import {
  RESOURCES,
  fullOffer,
  resourceCalls,
  type BackendOffer,
  type OwnCallName,
  type Resource,
} from '../contract/index.js';
import { GatewayError } from '../errors.js';
import { mapAnswer } from './answer.js';
import type {
  BackendRequest,
  Bound,
  CompiledResource,
  Method,
  Prepared,
  PreparedStep,
  PreparedUpload,
  RequestCall,
} from './bound.js';

export type { BackendRequest, Prepared, PreparedUpload } from './bound.js';
import { actionNamesOf, consoleCalls, consoleRoute, type ConsoleCall } from './calls.js';
import { compileCall, DEFAULT_ENVELOPE, type BaseEnvelope } from './compile.js';
import { FieldBinding, boundKinds, type BindingRules } from './fields.js';
import { keyCaseRule } from './key-case.js';
import { fillTemplate, type Lookup } from './template.js';
import { generatedValue } from './generate.js';
import { clientInput } from './client-keys.js';
import { checkListFilters } from './list-filters.js';
import { inputOptions } from './offer-options.js';
import { dayRange } from './days.js';
import {
  BROWSER_OWN_CALLS,
  DEFAULT_OWN_CALL_PATHS,
  compileOwnCalls,
  type BrowserOwnCall,
  type CompiledOwnCall,
  type OwnCallPaths,
} from './own-calls.js';
import {
  CALL_NAMES,
  type BackendMapFile,
  type CallMap,
  type CallName,
  type ResourceMap,
  type Scalar,
} from './types.js';
import { dayBound, offsetMinutes } from './values.js';
import { clockParams, planOf, sessionParams, singleOfEach, type CallContext, type Plan } from './plan.js';

export type { CallContext, Plan } from './plan.js';
/** A prepared call, with the plan of its requests when the map asks for more than one (plan.ts). */
export type Planned = Prepared & { plan?: Plan };

type Row = Record<string, unknown>;

const DATE_SUFFIX = /^(.+)(From|To)$/;

const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;
const NUMERIC_KINDS = new Set(['number', 'money', 'bytes']);

/**
 * A query string's values are all text; a template keeps its values' types, so the page numbers
 * and number fields of a GET are read as the numbers they are before they are placed.
 */
function typedQuery(query: Row, fields: FieldBinding): Row {
  const out: Row = { ...query };
  for (const key in out) {
    const value = out[key];
    const numeric = key === 'pageNum' || key === 'pageSize' || NUMERIC_KINDS.has(fields.byKey.get(key)?.kind ?? '');
    if (numeric && typeof value === 'string' && NUMBER_TEXT.test(value)) out[key] = Number(value);
  }
  return out;
}

/** What binding one resource's calls needs: the map's parts that apply to all of them. */
interface BindContext {
  resource: Resource;
  entry: ResourceMap;
  base: BaseEnvelope;
  rules: BindingRules;
  fields: FieldBinding;
  refusals: Record<string, number>;
}

/** The service member of a call's request: none for CHAT_BACKEND_URL's calls. */
function serviceOf(bound: Bound): { service?: string } {
  return bound.service === null ? {} : { service: bound.service };
}

/** The console's parameters with the call's generated values (`generate`) added under their names. */
function withGenerated(input: Row, generate: NonNullable<CallMap['generate']>, offset: number, now: number): Row {
  const out: Row = { ...input };
  for (const [name, kind] of Object.entries(generate)) out[name] = generatedValue(kind, now, offset);
  return out;
}

function appendParam(search: URLSearchParams, name: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) for (const item of value) appendParam(search, name, item);
  else search.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
}

/** The entry of a resource a map with `unnamed: unsupported` does not name. */
const UNNAMED: ResourceMap = { unsupported: true };

/**
 * A backend map compiled against the console's contract. The gateway asks it, per call of the
 * management screens, what to send to the backend and how to read the answer back into the
 * contract's shape. Resources the map does not name are not its business: they pass through the
 * proxy unchanged, unless the map says `unnamed: unsupported` (then they are unsupported).
 */
export class BackendMap {
  private readonly resources = new Map<string, CompiledResource>();
  private readonly offset: number;
  private readonly own: Map<OwnCallName, CompiledOwnCall>;

  constructor(
    readonly file: BackendMapFile,
    resources: readonly Resource[] = RESOURCES,
    ownPaths: OwnCallPaths = DEFAULT_OWN_CALL_PATHS,
  ) {
    this.offset = offsetMinutes(file.timeZone);
    this.own = compileOwnCalls(file, this.offset, ownPaths);
    const base = { ...DEFAULT_ENVELOPE, ...file.answer };
    for (const resource of resources) {
      // A map written for one backend (`unnamed: unsupported`) names what that backend serves; a
      // resource it does not name, a screen added after it was written among them, is not offered.
      const entry = file.resources?.[resource.id] ?? (file.unnamed === 'unsupported' ? UNNAMED : undefined);
      if (!entry) continue;
      const rules: BindingRules = {
        offset: this.offset,
        keyCase: keyCaseRule(entry.keyCase ?? file.keyCase),
        id: entry.id ?? file.id,
      };
      const fields = FieldBinding.forResource(resource, entry.fields ?? {}, rules);
      const context: BindContext = {
        resource,
        entry,
        base,
        rules,
        fields,
        refusals: { ...file.refusals, ...entry.refusals },
      };
      const calls = new Map<string, Bound | null>();
      for (const name of CALL_NAMES) {
        calls.set(name, this.bind(context, entry.calls?.[name], name));
      }
      for (const action of actionNamesOf(resource))
        calls.set(`action:${action}`, this.bind(context, entry.actions?.[action], null, action));
      this.resources.set(resource.id, { resource, fields, unsupported: entry.unsupported === true, calls });
    }
  }

  private bind(context: BindContext, call: CallMap | undefined, name: CallName | null, action?: string): Bound | null {
    const { resource, entry, base } = context;
    if (entry.unsupported || call?.unsupported) return null;
    // Unless the map says otherwise, a call goes where the console sends it.
    const start = name
      ? consoleRoute(resource, name)
      : { method: 'POST' as Method, path: resourceCalls(resource).action(action!) };
    // A selection's call: the row call's members, then the bulk call's own.
    const bulk = call?.bulk ? this.bind(context, { ...call, bulk: undefined, ...call.bulk }, name, action) : undefined;
    const record = { kinds: boundKinds(resource, entry.fields ?? {}), maps: entry.fields ?? {}, rules: context.rules };
    return { ...(bulk === undefined ? {} : { bulk }), ...compileCall(base, call, start, context.refusals, record) };
  }

  /** A resource's compiled calls, for the gateway's own work over them (whole lists, per-row calls, kept values). */
  compiled(resourceId: string): CompiledResource | undefined {
    return this.resources.get(resourceId);
  }

  /** True when the map names this resource (its calls are then translated). */
  names(resourceId: string): boolean {
    return this.resources.has(resourceId);
  }

  /** The console's calls the map takes over: every call of every resource it names. */
  calls(): ConsoleCall[] {
    return [...this.resources.values()].flatMap((r) => consoleCalls(r.resource));
  }

  /** True when the map's `console` section names this own call (bound or unsupported). */
  namesOwn(name: OwnCallName): boolean {
    return this.own.has(name);
  }

  /** The own calls of the browser the map takes over, as the browser makes them. */
  ownRoutes(): { name: BrowserOwnCall; method: 'GET' | 'POST'; path: string }[] {
    return (Object.keys(BROWSER_OWN_CALLS) as BrowserOwnCall[])
      .filter((n) => this.own.has(n))
      .map((name) => ({ name, ...BROWSER_OWN_CALLS[name] }));
  }

  /** The backend call for one own call of the console with its query (GET) or body (POST). */
  prepareOwn(name: OwnCallName, method: 'GET' | 'POST', input: Row, context: CallContext = {}): Prepared {
    const own = this.own.get(name);
    if (!own) throw new Error(`the map does not name console.${name}`);
    if (!own.bound) return { unsupported: `console.${name}` };
    const call: RequestCall = { method, kind: 'own' };
    return this.steps(call, `own:${name}`, own.bound, own.fields, input, context);
  }

  /**
   * The backend call of an upload: where it goes, and the names (and values) of its multipart
   * parts: the contract's `kind` and `name` as the map renames them (`params`, field names, key
   * case) and binds their values, the map's `extra` parts, and the file part's name. A `{kind}` or
   * `{name}` in the path takes the value out of the parts.
   */
  prepareUpload(input: { kind: string; name: string }): PreparedUpload | { unsupported: string } {
    const own = this.own.get('upload');
    if (!own) throw new Error('the map does not name console.upload');
    if (!own.bound) return { unsupported: 'console.upload' };
    const { bound, fields } = own;
    const renames = bound.call.params ?? {};
    const nameOf = (key: string) => (Object.hasOwn(renames, key) ? renames[key]! : fields.nameOf(key));
    const parts: [string, string][] = [];
    let path = bound.path;
    for (const key of ['kind', 'name'] as const) {
      const mapped = fields.toBackend(key, input[key]);
      if (!mapped) continue;
      const value = mapped[1] === null || mapped[1] === undefined ? '' : String(mapped[1]);
      const name = nameOf(key);
      if (bound.placeholders.includes(name) || bound.placeholders.includes(key)) {
        path = path.replace(`{${bound.placeholders.includes(name) ? name : key}}`, encodeURIComponent(value));
        continue;
      }
      parts.push([name, value]);
    }
    for (const [name, value] of Object.entries(bound.call.extra ?? {}))
      parts.push([name, value === null ? '' : String(value)]);
    const call: RequestCall = { method: 'POST', kind: 'own' };
    return {
      call,
      name: 'own:upload',
      bound,
      fields,
      request: { method: bound.method, path, ...serviceOf(bound) },
      parts,
      filePart: nameOf('file'),
    };
  }

  /**
   * A console call's backend calls: the bound call, then each of its `also` calls, all from the
   * same input; the range of days the console asked for goes with them when they read days.
   */
  private steps(
    call: RequestCall,
    name: string,
    bound: Bound,
    fields: FieldBinding,
    input: Row,
    context: CallContext,
  ): Prepared {
    const first = this.step(call, name, bound, fields, input, context);
    return bound.also.length === 0
      ? first
      : { ...first, also: bound.also.map((b) => this.step(call, name, b, fields, input, context)) };
  }

  private step(
    call: RequestCall,
    name: string,
    bound: Bound,
    fields: FieldBinding,
    input: Row,
    context: CallContext,
  ): PreparedStep {
    // A list filtered at the gateway (`keep`): every row is asked for, the console's page is cut here.
    const keep = name === 'list' ? bound.call.keep : undefined;
    if (name === 'list') checkListFilters(bound.call, fields, input);
    let sent = input;
    let window: PreparedStep['window'];
    if (keep) {
      const { pageNum, pageSize, ...rest } = input;
      const positive = (v: unknown, fallback: number) =>
        Number.isInteger(Number(v)) && Number(v) > 0 ? Number(v) : fallback;
      window = { page: positive(pageNum, 1), size: positive(pageSize, 20) };
      sent = rest;
    }
    const { request, values } = this.request(bound, fields, call, sent, context, keep?.all);
    return {
      call,
      name,
      bound,
      fields,
      request,
      ...(window ? { window } : {}),
      ...(values ? { values } : {}),
      ...(bound.days.length > 0 ? { range: dayRange(input) } : {}),
    };
  }

  offer(): BackendOffer {
    const offer = fullOffer();
    for (const own of this.own.values()) {
      if (own.bound === null) offer.unsupported.console.push(own.name);
      // A figure the backend lacks (a KPI card, a chart's series) is left out like a screen's absent field.
      const absent = [...own.fields.byKey.values()].filter((f) => f.absent).map((f) => f.key);
      if (own.bound !== null && absent.length > 0) offer.unsupported.fields[`console.${own.name}`] = absent;
    }
    for (const [id, compiled] of this.resources) {
      if (compiled.unsupported) {
        offer.unsupported.resources.push(id);
        continue;
      }
      const calls: string[] = [];
      const actions: string[] = [];
      for (const [name, bound] of compiled.calls) {
        if (bound !== null) continue;
        if (name.startsWith('action:')) actions.push(name.slice('action:'.length));
        else calls.push(name);
      }
      const absent = [...compiled.fields.byKey.values()].filter((f) => f.absent).map((f) => f.key);
      const unfiltered = [...compiled.fields.byKey.values()].filter((f) => f.unfiltered).map((f) => f.key);
      const shown = Object.entries(this.file.resources?.[id]?.fields ?? {}).flatMap(([key, map]) =>
        map.shown ? [{ key, kind: map.shown }] : [],
      );
      if (shown.length > 0) (offer.shown ??= {})[id] = shown;
      const options = inputOptions(compiled.resource, this.file.resources?.[id]?.fields);
      if (options) (offer.inputOptions ??= {})[id] = options;
      const needs = compiled.calls.get('list')?.call.needs ?? [];
      if (needs.length > 0) (offer.needs ??= {})[id] = [...needs];
      if (calls.length > 0) offer.unsupported.calls[id] = calls;
      if (actions.length > 0) offer.unsupported.actions[id] = actions;
      if (absent.length > 0) offer.unsupported.fields[id] = absent;
      if (unfiltered.length > 0) offer.unsupported.filters[id] = unfiltered;
    }
    return offer;
  }

  /** The backend call for one call of the console with its query (GET) or body (POST). */
  prepare(call: ConsoleCall, sent: Row, context: CallContext = {}): Planned {
    const compiled = this.resources.get(call.resource.id);
    if (!compiled) throw new Error(`the map does not name ${call.resource.id}`);
    let name: string;
    if (call.kind === 'save') name = sent.id === undefined || sent.id === null || sent.id === '' ? 'create' : 'update';
    else if (call.kind === 'action') name = `action:${call.action!}`;
    else name = call.kind;
    const rowBound = compiled.unsupported ? null : compiled.calls.get(name);
    // The contract tells a selection from a row by {ids} against {id}.
    const selection = call.kind === 'action' && Array.isArray(sent.ids) && (sent.id === undefined || sent.id === null);
    const bound = rowBound && selection && rowBound.bulk !== undefined ? rowBound.bulk : rowBound;
    const label = name.startsWith('action:') ? name.slice('action:'.length) : name;
    if (!bound) return { unsupported: `${call.resource.id}.${label}` };
    const fields = compiled.fields;
    // Only what the contract defines for this call is read from the client: never a name the map writes itself.
    const input = clientInput(call, fields, bound.call.params ?? {}, sent);
    const make = (one: Row, added?: Row, base?: Row) =>
      this.request(bound, fields, call, one, context, added, base).request;
    const readConfig = () => {
      const config = consoleCalls(call.resource).find((c) => c.kind === 'config');
      return config ? this.prepare(config, {}, context) : { unsupported: `${call.resource.id}.config` };
    };
    const plan = planOf(bound, input, make, readConfig);
    if (plan === null) return this.steps(call, name, bound, fields, singleOfEach(bound.call, input), context);
    const first = plan.kind === 'merge' ? plan.read.request : plan.requests[0]!;
    if (plan.kind === 'each' && bound.also.length > 0) {
      // A delete of several records over several calls each: every id's calls follow its own first request.
      const { ids: _ids, ...rest } = input;
      plan.then = plan.ids.map((id) =>
        bound.also.map((b) => this.step(call, name, b, fields, { ...rest, id }, context)),
      );
      return { call, name, bound, fields, request: first, plan };
    }
    // A plan's requests (one per id or code, a read before a save) come first; its `also` calls follow them.
    const also = bound.also.map((b) => this.step(call, name, b, fields, input, context));
    return { call, name, bound, fields, request: first, ...(also.length > 0 ? { also } : {}), plan };
  }

  /**
   * One request to the backend: the console's parameters (with the call's generated values)
   * renamed and transformed, then the map's fixed, session and clock values, then `added` (a
   * generated code); `base` (a merged save's current record) lies under them all. With it, the
   * values an answer's `result` reads, when the call has one.
   */
  private request(
    bound: Bound,
    fields: FieldBinding,
    call: RequestCall,
    query: Row,
    context: CallContext,
    added?: Row,
    base?: Row,
  ): { request: BackendRequest; values?: Lookup } {
    const { call: map } = bound;
    const typed = map.template !== undefined && call.method === 'GET' ? typedQuery(query, fields) : query;
    // Generated values join the console's parameters, so renames, dates and templates treat them alike.
    const input = map.generate ? withGenerated(typed, map.generate, this.offset, context.now ?? Date.now()) : typed;
    const renames = map.params ?? {};
    // The keys below are the client's (query or body): `constructor` or `toString` must find no
    // rename the map did not write, and `__proto__` must stay a plain member, never a prototype.
    const renamed = (key: string, fallback: string) => (Object.hasOwn(renames, key) ? renames[key]! : fallback);
    const params: Row = Object.create(null) as Row;
    // A backend whose end bound excludes itself hears the day after the console's last (its first second).
    const exclusive = map.dates?.exclusiveEnd === true;
    const dateFormat = map.dates?.format ?? (exclusive ? 'yyyy-MM-dd' : undefined);
    for (const key in input) {
      const value = input[key];
      // In a list call `sort` is always the order (a display-order field is never a filter).
      if (key === 'sort' && call.kind === 'list' && typeof value === 'string') {
        this.sort(params, value, renames, fields, map);
        continue;
      }
      // A backend counting pages from zero hears the console's page 1 as 0.
      if (
        key === 'pageNum' &&
        map.firstPage === 0 &&
        (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)))
      ) {
        params[renamed(key, fields.nameOf(key))] = Math.max(0, Number(value) - 1);
        continue;
      }
      const field = fields.byKey.get(key);
      if (field) {
        const mapped = fields.toBackend(key, value);
        if (mapped) params[renamed(key, mapped[0])] = mapped[1];
        continue;
      }
      const bound = DATE_SUFFIX.exec(key);
      const dateField = bound ? fields.byKey.get(bound[1]!) : undefined;
      if (bound && dateField && (dateField.kind === 'date' || dateField.kind === 'datetime')) {
        if (dateField.absent) continue;
        const template = (bound[2] === 'From' ? map.dates?.from : map.dates?.to) ?? `{name}${bound[2]}`;
        const text = typeof value === 'string' ? value : String(value);
        params[template.replace('{name}', dateField.name)] = dateFormat
          ? dayBound(text, bound[2] === 'To', dateFormat, this.offset, exclusive)
          : value;
        continue;
      }
      if (dateFormat && (key === 'startDate' || key === 'endDate') && typeof value === 'string') {
        params[renamed(key, fields.nameOf(key))] = dayBound(
          value,
          key === 'endDate',
          dateFormat,
          this.offset,
          exclusive,
        );
        continue;
      }
      const named = fields.toBackend(key, value)!;
      params[renamed(key, named[0])] = named[1];
    }
    for (const [name, value] of Object.entries(map.extra ?? {})) params[name] = value as Scalar;
    Object.assign(params, sessionParams(map, context), clockParams(map, context, this.offset), added);
    // A merged save: the backend's record as read, its plain members only (a form cannot carry more).
    // `mergeAs`: the name the backend binds, where it differs from the one it answered.
    for (const read in base) {
      const value = base[read];
      const name = map.mergeAs && Object.hasOwn(map.mergeAs, read) ? map.mergeAs[read]! : read;
      if (!(name in params) && value !== null && ['string', 'number', 'boolean'].includes(typeof value))
        params[name] = value;
    }

    let path = bound.path;
    for (const name of bound.placeholders) {
      const value = params[name];
      if (value === undefined || value === null || value === '') {
        throw new GatewayError(
          'BAD_REQUEST',
          `the backend's ${bound.path} needs ${name}, which this call did not send`,
        );
      }
      delete params[name];
      path = path.replace(`{${name}}`, encodeURIComponent(Array.isArray(value) ? value.join(',') : String(value)));
    }

    // A placeholder names a parameter as sent (after renames and key case), or as the console named it.
    const lookup: Lookup = (name: string) =>
      Object.hasOwn(params, name) ? params[name] : params[renames[name] ?? fields.nameOf(name)];
    const service = serviceOf(bound);
    const values = bound.result === null ? {} : { values: lookup };
    if (map.template !== undefined) {
      const text = JSON.stringify(fillTemplate(map.template, lookup));
      return {
        request: { method: bound.method, path, body: { contentType: 'application/json', text }, ...service },
        ...values,
      };
    }
    const where = map.in ?? (bound.method === 'GET' || bound.method === 'DELETE' ? 'query' : 'json');
    if (where === 'query') {
      const search = new URLSearchParams();
      for (const name in params) appendParam(search, name, params[name]);
      const query = search.toString();
      return { request: { method: bound.method, path: query ? `${path}?${query}` : path, ...service }, ...values };
    }
    if (where === 'form') {
      const search = new URLSearchParams();
      for (const name in params) appendParam(search, name, params[name]);
      return {
        request: {
          method: bound.method,
          path,
          body: { contentType: 'application/x-www-form-urlencoded', text: search.toString() },
          ...service,
        },
        ...values,
      };
    }
    const body = map.body === undefined ? params : params[map.body];
    return {
      request: {
        method: bound.method,
        path,
        body: { contentType: 'application/json', text: JSON.stringify(body ?? null) },
        ...service,
      },
      ...values,
    };
  }

  private sort(params: Row, value: string, renames: Record<string, string>, fields: FieldBinding, map: CallMap): void {
    const desc = value.startsWith('-');
    const key = desc ? value.slice(1) : value;
    const field = fields.byKey.get(key);
    if (field?.absent) return;
    const name = fields.nameOf(key);
    if (map.sort) {
      params[map.sort.field] = name;
      params[map.sort.order] = desc ? (map.sort.desc ?? 'desc') : (map.sort.asc ?? 'asc');
    } else {
      params[Object.hasOwn(renames, 'sort') ? renames.sort! : 'sort'] = `${desc ? '-' : ''}${name}`;
    }
  }

  /**
   * The backend's answer in the console's envelope and shape (see mapAnswer).
   */
  answer(
    prepared: PreparedStep,
    status: number,
    headers: Record<string, string | string[] | undefined>,
    json: unknown,
  ): { status: number; body: Row } {
    return mapAnswer(prepared, status, headers, json);
  }
}
