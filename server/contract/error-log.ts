/**
 * The UI's error log at the gateway (POST, GET and DELETE /api/error-log): what the UI sends,
 * what the gateway stores and lists, and how a page of it is asked for. Apart from gateway.ts
 * because these are TypeBox schemas, which the login page's first load must not carry; gateway.ts
 * re-exports the types only.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ERROR_LOG_LIMITS } from './gateway.js';

/** What the UI posts to /api/error-log. */
export const ErrorLogInputSchema = Type.Object(
  {
    message: Type.String({ maxLength: ERROR_LOG_LIMITS.maxMessageChars }),
    stack: Type.Optional(Type.String({ maxLength: ERROR_LOG_LIMITS.maxStackChars })),
    url: Type.String({ maxLength: ERROR_LOG_LIMITS.maxUrlChars }),
    info: Type.Optional(Type.String({ maxLength: ERROR_LOG_LIMITS.maxInfoChars })),
  },
  { additionalProperties: false },
);
export type ErrorLogInput = Static<typeof ErrorLogInputSchema>;

/** The `data` of a stored entry's answer. */
export const ErrorLogStoredSchema = Type.Object({ id: Type.String() });

const nullableString = Type.Union([Type.String(), Type.Null()]);

/** What the gateway stores and lists: the input plus what only the gateway can know. */
export const ErrorLogEntrySchema = Type.Composite([
  ErrorLogInputSchema,
  Type.Object({
    id: Type.String(),
    time: Type.String(),
    userId: nullableString,
    /** The account the session logged in with; absent on entries written before the gateway kept it. */
    account: Type.Optional(nullableString),
    userAgent: nullableString,
  }),
]);
export type ErrorLogEntry = Static<typeof ErrorLogEntrySchema>;

export const ErrorLogPageSchema = Type.Object({
  list: Type.Array(ErrorLogEntrySchema),
  total: Type.Integer(),
  /**
   * Whose entries the caller reads (GET only): `all` for a holder of ERROR_LOG_ADMIN_PERMISSION,
   * who alone may clear the log; `own` for everyone else.
   */
  scope: Type.Optional(Type.Unsafe<'own' | 'all'>({ type: 'string', enum: ['own', 'all'] })),
});
export type ErrorLogPage = Static<typeof ErrorLogPageSchema>;

/** What GET /api/error-log accepts; times are ISO 8601 dates or date-times. */
export const ErrorLogQuerySchema = Type.Object({
  pageNum: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
  pageSize: Type.Integer({ minimum: 1, maximum: ERROR_LOG_LIMITS.pageSizeMax, default: 20 }),
  keyword: Type.Optional(Type.String({ maxLength: 200 })),
  since: Type.Optional(Type.String({ maxLength: 40 })),
  until: Type.Optional(Type.String({ maxLength: 40 })),
});
