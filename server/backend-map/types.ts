import type { OwnCallName } from '../contract/calls.js';
import type { CallPlanMap, ClockMap } from './plan-types.js';

/** The backend map as written in its JSON file (validated against backend-map.schema.json). */

import type { TimeFormat } from './time-format.js';
export type { TimeFormat } from './time-format.js';
export type Scalar = string | number | boolean | null;
/** How the backend writes its keys: snake_case, camelCase (the console's own), kebab-case or PascalCase. */
export type KeyCase = 'snake' | 'camel' | 'kebab' | 'pascal';
/** How the backend writes ids: as text ("10023") against the console's numbers. */
export type IdType = 'string';
/** A JSON value with "{name}" placeholders in its strings. */
export type Template = Scalar | Template[] | { [key: string]: Template };

export interface EnvelopeMap {
  code?: string;
  message?: string;
  data?: string;
  success?: (number | string)[];
}

export interface FieldMap {
  name?: string;
  absent?: true;
  money?: 'yuan' | 'cent';
  values?: Record<string, Scalar>;
  time?: TimeFormat;
  id?: IdType;
  /** A switch read from a time: true while the backend's time (in this format) is later than now. */
  future?: TimeFormat;
  /** The backend keeps the value as text (a map<string,string>): a number or switch goes out as its text and reads back typed. */
  asText?: true;
  /** The value is sent as the lower-case hex digest of its text (a password the backend compares as md5); answers pass unchanged. */
  hash?: HashName;
}

/** A record or list inside an answer's data, with bindings of its own. */
export interface RelationMap {
  /** Where it is in the backend's data; default: the member named as the key case names the console's key. */
  at?: string;
  fields?: Record<string, FieldMap>;
  /** Map its members through the resource's own fields too (its own `fields` win). */
  recordFields?: true;
}

export interface AnswerMap extends EnvelopeMap {
  list?: string;
  total?: string;
  totalHeader?: string;
  totals?: string;
  record?: string;
  /** Where the mapped record goes in the console's data when it is elsewhere than `record` (a flat detail). */
  recordAs?: string;
  relations?: Record<string, RelationMap>;
  refusals?: Record<string, number>;
  /** "success": a 3xx answer (a write that redirects to the backend's list page, no envelope) succeeded. */
  redirect?: 'success';
  /**
   * Counts whose days are the keys of a map ({"2024-06-01": 3}, or a list of one-key objects), by
   * the console's key: a statistics row per day, or, for a figure, their sum over the call's range.
   */
  days?: Record<string, string>;
  /** The console's data, as a template over the call's values (generated ones included): {"password": "{password}"}. */
  result?: Template;
}

export interface CallMap extends CallPlanMap {
  unsupported?: true;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path?: string;
  in?: 'query' | 'json' | 'form';
  params?: Record<string, string>;
  body?: string;
  template?: Template;
  sort?: { field: string; order: string; asc?: Scalar; desc?: Scalar };
  /** `exclusiveEnd`: the backend's end bound leaves its own day (or instant) out, so the day after the console's last is sent. */
  dates?: { from?: string; to?: string; format?: TimeFormat; exclusiveEnd?: true };
  extra?: Record<string, Scalar>;
  /** The number of the backend's first page: 0 when it counts pages from zero (the console's pageNum 1 goes out as 0). */
  firstPage?: 0 | 1;
  answer?: AnswerMap;
  /** Actions only: the call sent instead when the console sends a selection ({ids}). */
  bulk?: CallMap;
  /** The map's `services` entry whose base URL this call goes to (absent: CHAT_BACKEND_URL). */
  service?: string;
  /** Values made afresh for this call, added to the console's parameters under these names before they are mapped. */
  generate?: Record<string, GeneratedValue>;
  /**
   * Further backend calls made for the same console call, in order: a settings screen read or
   * saved over two calls, statistics whose series come from several calls. Their answers merge.
   */
  also?: CallMap[];
}

export type HashName = 'md5' | 'sha256';

/**
 * A value made for one call: a UUID, a password (12 letters and digits, at least one of each),
 * today's date in the map's time zone (YYYY-MM-DD, a range bound like the console's), or the time.
 */
export type GeneratedValue = 'uuid' | 'password' | 'today' | 'epoch-seconds' | 'epoch-millis';

/** A base URL of its own for some calls (a backend split over services), read from an environment variable. */
export interface ServiceMap {
  /** The environment variable holding the service's base URL; unset, the service is CHAT_BACKEND_URL. */
  env: string;
  description?: string;
}

/**
 * One of the console's own calls (OWN_CALLS): a call's members, and the fields of its body and
 * answer (their kinds told from their bindings, as a relation's). No sort and no selection.
 */
export interface OwnCallMap extends Omit<CallMap, 'sort' | 'bulk' | 'also'> {
  fields?: Record<string, FieldMap>;
  also?: Omit<CallMap, 'sort' | 'bulk' | 'also'>[];
}

/** The `console` section: the console's own calls outside the management screens. */
export interface ConsoleMap {
  keyCase?: KeyCase;
  id?: IdType;
  refusals?: Record<string, number>;
  calls?: Partial<Record<OwnCallName, OwnCallMap>>;
}

export type CallName = 'list' | 'detail' | 'create' | 'update' | 'delete' | 'config' | 'saveConfig' | 'preview';

export interface ResourceMap {
  unsupported?: true;
  keyCase?: KeyCase;
  id?: IdType;
  refusals?: Record<string, number>;
  fields?: Record<string, FieldMap>;
  calls?: Partial<Record<CallName, CallMap>>;
  actions?: Record<string, CallMap>;
}

export interface BackendMapFile {
  description?: string;
  timeZone?: string;
  keyCase?: KeyCase;
  id?: IdType;
  refusals?: Record<string, number>;
  answer?: EnvelopeMap;
  /** The console's own calls (site configuration, dashboard, deployment, withdrawal count, logout). */
  console?: ConsoleMap;
  resources?: Record<string, ResourceMap>;
  /** How the gateway logs in, carries the token and signs (absent: the contract's own login and w-token). */
  auth?: AuthMap;
  /** Where a session's permissions come from (absent: the backend's own permission call). */
  permissions?: PermissionsMap;
  /** Named base URLs beside CHAT_BACKEND_URL, for calls that name them (`service`). */
  services?: Record<string, ServiceMap>;
}

/** Where a value goes on each call to the backend: header names, a query parameter, a cookie. */
export interface TravelMap {
  headers?: string[];
  query?: string;
  cookie?: string;
  /** Written before the value in the headers (e.g. "Bearer "). */
  prefix?: string;
}

export type PasswordTransform = 'none' | 'md5' | 'sha256';

/** The backend's own login call, sent by the gateway in place of the contract's. */
export interface LoginMap {
  path: string;
  method?: 'POST' | 'PUT' | 'GET';
  in?: 'json' | 'form' | 'query';
  /** The backend's names of the contract's account, password and one-time code (no name: the code is not sent). */
  fields?: { account?: string; password?: string; code?: string };
  password?: PasswordTransform;
  /** Fixed members sent with every login (OpenIM's `version`). */
  extra?: Record<string, Scalar>;
  answer: {
    token: string;
    userId: string;
    /** Answer values kept in the session under these names (a level, a role, an apiKey). */
    keep?: Record<string, string>;
    /** This call's own envelope, when it differs from the map's `answer`. */
    code?: string;
    message?: string;
    success?: (number | string)[];
  };
}

/** A value made afresh for each call to the backend. */
export interface GeneratedMap {
  value: 'uuid' | 'epoch-seconds' | 'epoch-millis';
  header?: string;
  query?: string;
}

export interface SignerMap {
  name: string;
  /** The signer's own settings (shiku: apiKey). */
  options?: Record<string, Scalar>;
}

export interface AuthMap {
  login: LoginMap;
  token?: TravelMap;
  userId?: TravelMap;
  generated?: GeneratedMap[];
  signer?: SignerMap;
  /** The backend's clock, asked at login; the difference corrects every later time (clock.ts). */
  clock?: ClockMap;
}

/** A permission list: the console's permission strings, or "all" of them. */
export type PermissionList = 'all' | string[];

export type PermissionsMap =
  | 'all'
  | { call: { path: string; method?: 'GET' | 'POST' }; list: string }
  | { from: string; table: Record<string, PermissionList>; otherwise?: PermissionList };
