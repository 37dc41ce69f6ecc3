import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { GATEWAY_PATHS, PERMISSIONS, RESOURCES, csvFileName, CSV_BOM, csvLine } from '../contract/index.js';
import {
  AUDIT_LIMITS,
  AuditHistoryQuerySchema,
  AuditPageSchema,
  AuditQuerySchema,
  type AuditEntry,
} from '../contract/audit.js';
import { GatewayError } from '../errors.js';
import { answerSchema } from '../lib/answer-schema.js';
import { timeBound } from '../lib/time-bound.js';
import { NO_STORE } from '../plugins/security.js';
import type { AuditQuery } from './store.js';

/** Who reads the whole trail: the operation log's permission. */
export const AUDIT_PERMISSION = PERMISSIONS.record;

const pageAnswer = answerSchema(AuditPageSchema);

/** The trail's CSV: one row an entry, every field a column, the chain's fields included. */
const CSV_COLUMNS: readonly [string, (entry: AuditEntry) => unknown][] = [
  ['seq', (e) => e.seq],
  ['time', (e) => e.time],
  ['kind', (e) => e.kind],
  ['account', (e) => e.actor.account],
  ['userId', (e) => e.actor.userId],
  ['resource', (e) => e.resource],
  ['call', (e) => e.call],
  ['action', (e) => e.action],
  ['targets', (e) => e.targets.join(' ')],
  ['names', (e) => (e.names === undefined ? undefined : JSON.stringify(e.names))],
  ['reason', (e) => e.reason],
  ['status', (e) => e.outcome?.status],
  ['code', (e) => e.outcome?.code],
  ['message', (e) => e.outcome?.msg],
  ['before', (e) => (e.before === undefined ? undefined : JSON.stringify(e.before))],
  ['after', (e) => (e.after === undefined ? undefined : JSON.stringify(e.after))],
  ['inputs', (e) => (e.inputs === undefined ? undefined : JSON.stringify(e.inputs))],
  ['export', (e) => (e.export === undefined ? undefined : JSON.stringify(e.export))],
  ['detail', (e) => (e.detail === undefined ? undefined : JSON.stringify(e.detail))],
  ['cut', (e) => (e.cut === undefined ? undefined : JSON.stringify(e.cut))],
  ['requestId', (e) => e.requestId],
  ['ip', (e) => e.ip],
  ['method', (e) => e.method],
  ['path', (e) => e.path],
  ['id', (e) => e.id],
  ['prev', (e) => e.prev],
  ['hash', (e) => e.hash],
];

const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/**
 * The trail's two questions: the whole trail (GET /api/audit), paged, filtered and as CSV, for
 * holders of the operation log's permission; and the history of some records (GET
 * /api/audit/history), for whoever may open those records' screen (a user's bans and edits in its
 * detail view, who reviewed each withdrawal of a page).
 */
export default function registerRoutes(scope: FastifyInstance): void {
  // The contract's schemas are the routes' validators and, through the type provider, their types.
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const resourceById = new Map(RESOURCES.map((r) => [r.id, r]));

  const requirePermission = async (request: FastifyRequest, anyOf: readonly string[]): Promise<void> => {
    const held = await app.permissions.of(request.session!);
    if (held === 'unauthorized') throw new GatewayError('NOT_LOGGED_IN', 'the backend no longer takes this session');
    if (!held.some((p) => anyOf.includes(p)))
      throw new GatewayError('FORBIDDEN', `this needs the permission ${anyOf.join(' or ')}`);
  };

  app.get(
    GATEWAY_PATHS.audit,
    { onRequest: app.sessions.require, schema: { querystring: AuditQuerySchema, response: { 200: pageAnswer } } },
    async (request, reply) => {
      await requirePermission(request, [AUDIT_PERMISSION]);
      const q = request.query;
      const filters: Omit<AuditQuery, 'pageNum' | 'pageSize'> = {};
      if (q.actor?.trim()) filters.actor = q.actor.trim();
      if (q.resource?.trim()) filters.resource = q.resource.trim();
      if (q.action?.trim()) filters.action = q.action.trim();
      if (q.target?.trim()) filters.targets = [q.target.trim()];
      if (q.kind) filters.kind = q.kind;
      const since = timeBound('since', q.since, false);
      const until = timeBound('until', q.until, true);
      if (since !== undefined) filters.since = since;
      if (until !== undefined) filters.until = until;
      reply.header('cache-control', NO_STORE);
      if (q.format !== 'csv')
        return {
          code: 200,
          msg: 'ok',
          data: await app.audit.query({ ...filters, pageNum: q.pageNum, pageSize: q.pageSize }),
        };

      // The whole filtered trail, newest first, read a page at a time below a position that holds
      // still while entries are added, and recorded as an export once written.
      const shown: Record<string, string> = {};
      for (const key of ['actor', 'resource', 'action', 'target', 'kind', 'since', 'until'] as const)
        if (q[key]) shown[key] = String(q[key]);
      async function* rows(): AsyncGenerator<string> {
        let written = 0;
        let complete = false;
        try {
          yield CSV_BOM + csvLine(CSV_COLUMNS.map(([name]) => name));
          let before: number | undefined;
          while (written < AUDIT_LIMITS.csvMax) {
            const page = await app.audit.query({
              ...filters,
              pageNum: 1,
              pageSize: 500,
              ...(before === undefined ? {} : { beforeSeq: before }),
            });
            if (page.list.length === 0) break;
            let text = '';
            for (const entry of page.list) {
              if (written >= AUDIT_LIMITS.csvMax) break;
              text += csvLine(CSV_COLUMNS.map(([, value]) => cell(value(entry))));
              written++;
            }
            yield text;
            before = page.list[page.list.length - 1]!.seq;
          }
          complete = true;
        } finally {
          // Recorded however it ends: a download the browser abandoned still took its rows.
          await app.audit.record(
            {
              kind: 'export',
              resource: 'audit',
              call: 'list',
              action: 'export',
              outcome: complete
                ? { status: 200, code: 200 }
                : { status: 200, code: null, msg: 'the export was cut short' },
              export: { filters: shown, rows: written, format: 'csv' },
            },
            request,
          );
        }
      }
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${csvFileName('audit-trail', new Date())}"`);
      // The CSV is a stream, sent as it is: the schema's type is the JSON answer's.
      return reply.send(Readable.from(rows()) as never);
    },
  );

  app.get(
    GATEWAY_PATHS.auditHistory,
    {
      onRequest: app.sessions.require,
      schema: { querystring: AuditHistoryQuerySchema, response: { 200: pageAnswer } },
    },
    async (request, reply) => {
      const resource = resourceById.get(request.query.resource);
      if (!resource) throw new GatewayError('BAD_REQUEST', `no resource ${request.query.resource}`);
      await requirePermission(request, [resource.permission, AUDIT_PERMISSION]);
      const targets = [
        ...new Set(
          request.query.targets
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        ),
      ];
      if (targets.length > AUDIT_LIMITS.historyTargetsMax)
        throw new GatewayError('BAD_REQUEST', `at most ${AUDIT_LIMITS.historyTargetsMax} records at once`);
      reply.header('cache-control', NO_STORE);
      const page = await app.audit.query({
        pageNum: 1,
        pageSize: AUDIT_LIMITS.historyMax,
        resource: resource.id,
        targets,
      });
      // Whoever may open the records sees who changed them and how, not the administrators' addresses.
      return { code: 200, msg: 'ok', data: { ...page, list: page.list.map((entry) => ({ ...entry, ip: null })) } };
    },
  );
}
