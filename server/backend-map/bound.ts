import type { ConsoleCall } from './calls.js';
import type { FieldBinding } from './fields.js';
import type { Pointer } from './pointer.js';
import type { Resource } from '../contract/index.js';
import type { CallMap } from './types.js';

/** The compiled parts of a backend map that its request and answer sides share. */

export type Method = NonNullable<CallMap['method']>;

/** A call ready to send to the backend. */
export interface BackendRequest {
  method: Method;
  /** Path and query, under the backend's base URL. */
  path: string;
  body?: { contentType: string; text: string };
}

export interface Envelope {
  code: Pointer;
  message: Pointer;
  data: Pointer;
  success: Set<string>;
}

/** One call of one resource, compiled. */
export interface Bound {
  call: CallMap;
  method: Method;
  path: string;
  placeholders: string[];
  envelope: Envelope;
  list: Pointer;
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

/** A call of the console as the gateway is to send it, or why it cannot be. */
export type Prepared = { call: RequestCall; name: string; bound: Bound; fields: FieldBinding; request: BackendRequest } | { unsupported: string };

/** An upload as the gateway is to send it: the call, its text parts in order, and the file part's name. */
export type PreparedUpload = Extract<Prepared, { bound: Bound }> & { parts: [string, string][]; filePart: string };
