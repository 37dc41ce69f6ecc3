import type { ConsoleCall } from './calls.js';
import type { FieldBinding } from './fields.js';
import type { Pointer } from './pointer.js';
import type { Resource } from '../contract/index.js';
import type { Lookup } from './template.js';
import type { CallMap, Template } from './types.js';

/** The compiled parts of a backend map that its request and answer sides share. */

export type Method = NonNullable<CallMap['method']>;

/** A call ready to send to the backend. */
export interface BackendRequest {
  method: Method;
  /** Path and query, under the backend's base URL. */
  path: string;
  body?: { contentType: string; text: string };
  /** The map's service whose base URL it goes to; absent: CHAT_BACKEND_URL. */
  service?: string;
}

export interface Envelope {
  code: Pointer;
  message: Pointer;
  data: Pointer;
  success: Set<string>;
  /** No envelope: the HTTP status is the code and the body the data (the map's `status`). */
  byStatus: boolean;
}

/** One call of one resource, compiled. */
export interface Bound {
  call: CallMap;
  method: Method;
  path: string;
  placeholders: string[];
  envelope: Envelope;
  list: Pointer;
  /** Records nested in each list row lifted to the row's top before its fields are read (`answer.lift`). */
  lift: Pointer[];
  total: Pointer | null;
  totalHeader: string | null;
  totals: Pointer;
  record: Pointer;
  /** Where the mapped record goes in the console's data, when not where the backend had it. */
  recordAs: Pointer | null;
  relations: Relation[];
  /** The answer's data is shaped (record, relations) even for an action or a preview: the map said so. */
  shaped: boolean;
  /** The backend's refusal codes (as text) to the console's. */
  refusals: ReadonlyMap<string, number>;
  /** An action's call for a selection ({ids}); undefined: the row call serves both. */
  bulk?: Bound | null;
  /** The map's service this call goes to; null: CHAT_BACKEND_URL. */
  service: string | null;
  /** Counts keyed by day, by the console's key, from the answer's root. */
  days: DaySeries[];
  /** The console's data made from the call's values instead of read from the answer. */
  result: Template | null;
  /** Further calls made for the same console call (`also`), in order. */
  also: Bound[];
  /** Calls made per row shown (`rows`): their values join the row. */
  rows: Bound[];
}

/** One series of day-keyed counts: the console's key, and where the map of days is in the answer. */
export interface DaySeries {
  key: string;
  at: Pointer;
}

/** A record or list inside an answer's data, compiled: where, under which console key, with which fields. */
export interface Relation {
  key: string;
  at: Pointer;
  fields: FieldBinding;
}

export interface CompiledResource {
  resource: Resource;
  fields: FieldBinding;
  unsupported: boolean;
  calls: Map<string, Bound | null>;
}

/** What building a request needs of the console's call: how it arrived, and whether it is a list (its sort). */
export interface RequestCall {
  method: ConsoleCall['method'];
  kind: ConsoleCall['kind'] | 'own';
}

/** One backend call of a console call, ready: what to send, and how its answer is read. */
export interface PreparedStep {
  call: RequestCall;
  name: string;
  bound: Bound;
  fields: FieldBinding;
  request: BackendRequest;
  /** The call's values (sent parameters, the console's and generated ones) for an answer's `result`. */
  values?: Lookup;
  /** The days the console asked for (startDate, endDate), when the answer is counts keyed by day. */
  range?: { from: string; to: string } | null;
  /** The console's page, when the gateway pages a list itself (`keep`): 1-based. */
  window?: { page: number; size: number };
}

/** A call of the console as the gateway is to send it (its `also` steps after it), or why it cannot be. */
export type Prepared = (PreparedStep & { also?: PreparedStep[] }) | { unsupported: string };

/** An upload as the gateway is to send it: the call, its text parts in order, and the file part's name. */
export type PreparedUpload = PreparedStep & { parts: [string, string][]; filePart: string };
