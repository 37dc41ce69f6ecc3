/**
 * The gateway's audit trail, shared by the gateway and the UI: what one entry holds, how the trail
 * is asked for, and the streamed CSV export of a management list (which the gateway records).
 */
import { Type, type Static } from '@sinclair/typebox';

/**
 * What an entry records. `change`: a call that changes something (every non-GET /manage call, and
 * the GETs that change state, as the withdrawal sync); `export`: rows that left as a file;
 * `login`, `logout`: sessions; `hold`, `confirm`, `decline`: a change held for a second
 * administrator's approval, and that approval given or refused.
 */
export const AUDIT_KINDS = ['change', 'export', 'login', 'logout', 'hold', 'confirm', 'decline'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** Values an entry may carry: JSON without undefined, so its canonical text is one string. */
export type AuditValue = string | number | boolean | null | AuditValue[] | { [key: string]: AuditValue };
export type AuditRecord = Record<string, AuditValue>;

/**
 * An entry's free records (before, after, inputs, detail): AuditValue by type, any JSON object to
 * the schema (a recursive schema would cost the serializer for nothing: the recorder builds them).
 */
const auditRecord = Type.Unsafe<AuditRecord>({ type: 'object', additionalProperties: true });
const nullableString = Type.Union([Type.String(), Type.Null()]);

/** Who called: the backend's user id of the session, and the account it logged in with. */
export const AuditActorSchema = Type.Object({ userId: nullableString, account: nullableString });
export type AuditActor = Static<typeof AuditActorSchema>;

/** How the call ended: the HTTP status the browser got and the envelope's code (the backend's, or the gateway's). */
export const AuditOutcomeSchema = Type.Object({
  status: Type.Integer(),
  code: Type.Union([Type.Integer(), Type.String(), Type.Null()]),
  msg: Type.Optional(Type.String()),
});
export type AuditOutcome = Static<typeof AuditOutcomeSchema>;

const auditKind = Type.Unsafe<AuditKind>({ type: 'string', enum: [...AUDIT_KINDS] });

/**
 * One entry as stored, and as GET /api/audit answers it (serialised through this schema, so a
 * foreign member of a hand-edited trail stays out): chained by `prev` (the hash of the entry
 * before) and `hash` (its own).
 */
export const AuditEntrySchema = Type.Object({
  /** Position in the chain, from 1; an anchor stands for the entries before the first one kept. */
  seq: Type.Integer(),
  id: Type.String(),
  /** ISO 8601, UTC. */
  time: Type.String(),
  /** SHA-256 (hex) of the entry before, over its canonical text; 64 zeros before the first. */
  prev: Type.String(),
  /** SHA-256 (hex) of this entry's canonical text without `hash`. */
  hash: Type.String(),
  kind: auditKind,
  actor: AuditActorSchema,
  requestId: nullableString,
  /** The client's address, as the gateway determined it. */
  ip: nullableString,
  /** The call as the browser made it (path without the query). */
  method: nullableString,
  path: nullableString,
  /** The contract's resource id (`users`), or `deployment` for the deployment calls; null when unknown. */
  resource: nullableString,
  /** The contract's call: save, delete, config, action, run, or an own call's name (runnerSetMoment). */
  call: nullableString,
  /** What was done: create, update, delete, saveConfig, an action's name (ban, approve), export, login... */
  action: nullableString,
  /** Record ids the call names (`id`, `ids`). */
  targets: Type.Array(Type.String()),
  /**
   * What the records are called (a user's account), by id, where the gateway read them before the
   * change (an edit, an action that declares what it `sets`): a trail that says `wei1805` rather
   * than `102732`. Absent when no record was read.
   */
  names: Type.Optional(Type.Record(Type.String(), Type.String())),
  reason: nullableString,
  outcome: Type.Union([AuditOutcomeSchema, Type.Null()]),
  /** Settings save, record update, an action that declares what it sets: the changed values as they were (null when they could not be read). */
  before: Type.Optional(Type.Union([auditRecord, Type.Null()])),
  /** Settings save and record update: the changed values as sent; a create: the record sent. Secrets never. */
  after: Type.Optional(auditRecord),
  /** Other inputs of an action (besides ids and reason), secrets left out. */
  inputs: Type.Optional(auditRecord),
  /** An export: the list's filters and how many rows left. */
  export: Type.Optional(
    Type.Object({
      filters: Type.Record(Type.String(), Type.String()),
      rows: Type.Integer(),
      format: Type.Literal('csv'),
    }),
  ),
  /** Anything else a kind carries (a hold's id). */
  detail: Type.Optional(auditRecord),
  /**
   * What the entry's size bound (8 KB) left out, by member: characters of `path`, `reason` and
   * `targetChars` (the ids' text), ids of `targets`, bytes of a value given up (`after`, `detail`...).
   * Absent when nothing was cut.
   */
  cut: Type.Optional(Type.Record(Type.String(), Type.Integer())),
});
export type AuditEntry = Static<typeof AuditEntrySchema>;

export const AuditPageSchema = Type.Object({ list: Type.Array(AuditEntrySchema), total: Type.Integer() });
export type AuditPage = Static<typeof AuditPageSchema>;

/** Written in place of a secret that changed; the value itself is never recorded. */
export const AUDIT_SECRET_CHANGED = '[changed]';

export const AUDIT_LIMITS = {
  pageSizeMax: 200,
  /** Entries the history of records answers at most. */
  historyMax: 200,
  /** Record ids one history question may name. */
  historyTargetsMax: 200,
  /** Rows the CSV of the audit trail holds at most. */
  csvMax: 100_000,
} as const;

/** Rows one export holds at most, read from the backend this many at a time. */
export const EXPORT_LIMITS = {
  maxRows: 10_000,
  pageSize: 200,
  maxColumns: 100,
} as const;

const shortText = Type.String({ maxLength: 128 });

/** GET /api/audit: every filter is optional; `actor` is an account or a user id, `since`/`until` ISO dates or times. */
export const AuditQuerySchema = Type.Object(
  {
    pageNum: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
    pageSize: Type.Integer({ minimum: 1, maximum: AUDIT_LIMITS.pageSizeMax, default: 20 }),
    actor: Type.Optional(shortText),
    resource: Type.Optional(shortText),
    action: Type.Optional(shortText),
    target: Type.Optional(shortText),
    kind: Type.Optional(auditKind),
    since: Type.Optional(Type.String({ maxLength: 40 })),
    until: Type.Optional(Type.String({ maxLength: 40 })),
    format: Type.Unsafe<'json' | 'csv'>({ type: 'string', enum: ['json', 'csv'], default: 'json' }),
  },
  { additionalProperties: false },
);
/** What a client sends: the paging and the format have defaults. */
export type AuditQueryParams = Partial<Static<typeof AuditQuerySchema>>;

/** GET /api/audit/history: the history of some records of one resource. */
export const AuditHistoryQuerySchema = Type.Object(
  {
    resource: shortText,
    /** Record ids joined by commas. */
    targets: Type.String({ minLength: 1, maxLength: 8_000 }),
  },
  { additionalProperties: false },
);

/** One column of a streamed CSV export, labelled in the reader's language by the UI. */
export const ExportColumnSchema = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 64 }),
    label: Type.String({ maxLength: 200 }),
    kind: Type.String({ maxLength: 16 }),
    /** How stored values read (select options, yes/no, module names): value -> label. */
    values: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 200 }), { maxProperties: 500 })),
  },
  { additionalProperties: false },
);
export type ExportColumn = Static<typeof ExportColumnSchema>;

/** POST /api/export: the list call's filters (without paging) and the columns to write. */
export const ExportRequestSchema = Type.Object(
  {
    resource: Type.String({ maxLength: 64 }),
    query: Type.Record(Type.String(), Type.String({ maxLength: 1_000 }), { maxProperties: 64 }),
    columns: Type.Array(ExportColumnSchema, { minItems: 1, maxItems: EXPORT_LIMITS.maxColumns }),
  },
  { additionalProperties: false },
);
export type ExportRequest = Static<typeof ExportRequestSchema>;

/** Answer headers of an export: how many rows the filtered list holds, and how many the file does. */
export const EXPORT_TOTAL_HEADER = 'x-export-total';
export const EXPORT_ROWS_HEADER = 'x-export-rows';
