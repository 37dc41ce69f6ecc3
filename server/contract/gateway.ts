/** The gateway's own endpoints, shared by the gateway and the UI. */

export const COOKIE_TOKEN = 'token';
export const COOKIE_USER_ID = 'userId';
export const SESSION_NAME = 'Admin';

export const GATEWAY_PATHS = {
  session: '/api/session',
  logout: '/api/logout',
  events: '/api/events',
  errorLog: '/api/error-log',
  healthz: '/healthz',
  readyz: '/readyz',
  metrics: '/metrics',
  backendOffer: '/api/backend-offer',
  audit: '/api/audit',
  auditHistory: '/api/audit/history',
  export: '/api/export',
  /** GET: the upload limits; POST ?kind&name with the file as the body: streamed to the file server. */
  upload: '/api/upload',
  approvals: '/api/approvals',
  /** GET /:resource, PUT /:resource, DELETE /:resource/:name: this administrator's saved list views. */
  savedViews: '/api/saved-views',
} as const;

/** The offer's lists of names: whole screens (resource ids), and the console's own calls (OWN_CALLS). */
export const OFFER_LISTS = ['resources', 'console'] as const;
/**
 * The offer's lists of names by resource id (or `console.<own call>` for fields): calls, actions,
 * fields, and the fields a list cannot be filtered by.
 */
export const OFFER_TABLES = ['calls', 'actions', 'fields', 'filters'] as const;

/**
 * What the backend map (BACKEND_MAP) leaves out, by the contract's resource ids: whole screens,
 * calls of a screen (list, detail, create, update, delete, config, saveConfig, preview), named
 * actions, fields the backend lacks and fields its lists cannot be filtered by; and by name (OWN_CALLS) the console's own calls it lacks
 * (a dashboard figure, a deployment call, the withdrawal count, the logout). All empty without a map.
 */
export interface BackendOffer {
  unsupported: { [K in (typeof OFFER_LISTS)[number]]: string[] } & {
    [K in (typeof OFFER_TABLES)[number]]: Record<string, string[]>;
  };
  /**
   * The backend's fields outside the contract the map shows on a record's page (a field's
   * `shown`), by resource id: each read-only, as its kind. Absent: none.
   */
  shown?: Record<string, ShownField[]>;
  /**
   * The filters (field keys) a list cannot be read without (a list call's `needs`), by resource
   * id: the screen asks for them rather than show the backend's refusal. Absent: none.
   */
  needs?: Record<string, string[]>;
  /**
   * The options a select input (an action's or an operation's) keeps, by resource id and input key,
   * where the map can send fewer than the contract offers (ejabberd's mass message: all, online).
   * The others are not offered. Absent: every option of every input.
   */
  inputOptions?: Record<string, Record<string, string[]>>;
}

/** A backend field outside the contract, shown on the record page as one of these kinds. */
export interface ShownField {
  key: string;
  kind: 'text' | 'number' | 'switch' | 'datetime' | 'date' | 'money';
}

/** An offer that leaves nothing out: without a map, or when the gateway cannot say. */
export function fullOffer(): BackendOffer {
  const lists = Object.fromEntries(OFFER_LISTS.map((key) => [key, []]));
  const tables = Object.fromEntries(OFFER_TABLES.map((key) => [key, {}]));
  return { unsupported: { ...lists, ...tables } as BackendOffer['unsupported'] };
}

/** The `error` of the gateway's 401 when a call needs a session it does not have (none, expired, logged out). */
export const NOT_LOGGED_IN_ERROR = 'NOT_LOGGED_IN';
/** The `data` of the gateway's 429 RATE_LIMITED answer to a throttled login (also sent as Retry-After). */
export interface LoginThrottled {
  retryAfterSeconds: number;
}

/** How the built-in sandbox speaks (SANDBOX_DIALECT): the console's own contract or a backend's dialect. */
export const SANDBOX_DIALECTS = ['default', 'legacy', 'openim', 'shiku'] as const;
export type SandboxDialect = (typeof SANDBOX_DIALECTS)[number];

export interface SessionInfo {
  loggedIn: boolean;
  userId: string | null;
  name: typeof SESSION_NAME;
  /** True when the gateway runs on its built-in sandbox backend; the UI shows a banner. */
  sandbox: boolean;
  /** The chat's web client as the operator set it (WEB_CLIENT_URL); null: the UI derives it. */
  webClientUrl: string | null;
  /** How that sandbox speaks (SANDBOX_DIALECT), named in the banner; null without a sandbox. */
  sandboxDialect: SandboxDialect | null;
  /** ISO 4217 code of the wallet's money (CURRENCY): the backend's amounts never name it. */
  currency: string;
  /**
   * Whether the backend offers the site configuration (the tab's title and icon, the menu's logo): a
   * backend map may mark it unsupported, and the UI then never asks for it. Told before login, as
   * the site configuration is read there too.
   */
  siteConfigOffered: boolean;
}

export const WITHDRAWAL_EVENT = 'withdrawal-count';
/** Sent before the gateway ends a stream because its session is over. */
export const SESSION_ENDED_EVENT = 'session-ended';
export interface SessionEndedEvent {
  /**
   * `backend`: the backend no longer knows the token (logged in elsewhere); `logged-out`: the
   * session was logged out (in another tab, say); `expired`: it reached its maximum age.
   */
  reason: 'backend' | 'logged-out' | 'expired';
}
export interface WithdrawalCountEvent {
  count: number;
}

/** The error log's shapes (ErrorLogInput, ErrorLogEntry, ErrorLogPage) are schemas: contract/error-log.ts. */
export const ERROR_LOG_LIMITS = {
  /** Largest accepted JSON body of one entry, in bytes; larger answers 413. */
  maxEntryBytes: 16 * 1024,
  maxMessageChars: 2_000,
  maxStackChars: 10_000,
  maxUrlChars: 2_000,
  maxInfoChars: 2_000,
  pageSizeMax: 200,
} as const;

/** Routes the UI serves without a session; every other one needs a login. */
export const PUBLIC_ROUTES: readonly string[] = ['/login', '/auth-redirect', '/404', '/401'];

/**
 * A redirect target is honoured only as a same-origin path: one leading slash, not `//` or `/\`,
 * no scheme, no control characters. Anything else falls back to `/`.
 */
export function safeRedirectPath(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return '/';
  if (!value.startsWith('/')) return '/';
  if (value.startsWith('//') || value.startsWith('/\\')) return '/';
  // Browsers strip tabs and newlines inside URLs, which would turn "/\t/evil" into "//evil".
  if ([...value].some((c) => c < ' ' || c === '\u007f')) return '/';
  if (value.includes('\\')) return '/';
  return value;
}
