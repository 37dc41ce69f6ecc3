import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  GATEWAY_PATHS,
  RESOURCES,
  SUCCESS_CODE,
  csvFileName,
  CSV_BOM,
  csvLine,
  csvValue,
  resourceCalls,
  type ListResource,
} from '../contract/index.js';
import { EXPORT_LIMITS, EXPORT_ROWS_HEADER, EXPORT_TOTAL_HEADER, ExportRequestSchema } from '../contract/audit.js';
import { GatewayError } from '../errors.js';
import { boundedText } from './redact.js';
import { readContract } from './contract-read.js';

/** Members of the list query that are paging, not filters: the export reads every page itself. */
const PAGING = new Set(['pageNum', 'pageSize']);

interface ListPage {
  list: Record<string, unknown>[];
  total: number;
}

function pageOf(data: unknown): ListPage {
  const page = data as Partial<ListPage> | null | undefined;
  return { list: Array.isArray(page?.list) ? page.list : [], total: typeof page?.total === 'number' ? page.total : 0 };
}

/**
 * The CSV export of a management list, made by the gateway so that what leaves is known and
 * recorded: it reads the filtered list from the backend a page at a time (through the backend map
 * when it binds the resource, as the screen's own calls go), writes each page as it comes, and
 * records the export (resource, filters, rows) in the audit trail when the file ends. The screen
 * names the columns and their labels in the reader's language; the values are written as the
 * console writes them (contract/csv.ts). At most EXPORT_LIMITS.maxRows rows; the answer's headers
 * say how many the list holds and how many the file does.
 */
export default function registerExport(scope: FastifyInstance): void {
  // The contract's schema is the route's validator and, through the type provider, its type.
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const lists = new Map(RESOURCES.filter((r): r is ListResource => r.kind === 'list').map((r) => [r.id, r]));

  app.post(
    GATEWAY_PATHS.export,
    { onRequest: app.sessions.require, preHandler: app.sessionCalls.limit, schema: { body: ExportRequestSchema } },
    async (request, reply) => {
      const { body } = request;
      const resource = lists.get(body.resource);
      if (!resource) throw new GatewayError('BAD_REQUEST', `no list resource ${body.resource}`);
      const session = request.session!;
      const filters: Record<string, string> = {};
      for (const [key, value] of Object.entries(body.query)) if (!PAGING.has(key) && value !== '') filters[key] = value;
      const { pageSize, maxRows } = EXPORT_LIMITS;
      const path = resourceCalls(resource).list;
      const read = (pageNum: number) =>
        readContract(app, request, session, resource, path, {
          ...filters,
          pageNum: String(pageNum),
          pageSize: String(pageSize),
        });
      const recordExport = (rows: number, outcome: { status: number; code: number | string | null; msg?: string }) =>
        app.audit.record(
          {
            kind: 'export',
            resource: resource.id,
            call: 'list',
            action: 'export',
            outcome,
            export: { filters, rows, format: 'csv' },
          },
          request,
        );

      // The first page before any byte of the file: a refusal answers in the envelope, and the
      // headers can say how many rows there are.
      const first = await read(1);
      if (first.code !== SUCCESS_CODE) {
        await recordExport(0, { status: 200, code: first.code, msg: boundedText(String(first.msg ?? ''), 200) });
        return first;
      }
      const firstPage = pageOf(first.data);
      const total = firstPage.total;
      const columns = body.columns;
      const line = (row: Record<string, unknown>) =>
        csvLine(columns.map((column) => csvValue(column, row[column.key])));

      async function* file(): AsyncGenerator<string> {
        let written = 0;
        let outcome: { status: number; code: number | string | null; msg?: string } | null = null;
        try {
          yield CSV_BOM + csvLine(columns.map((c) => c.label));
          let page = firstPage;
          for (let pageNum = 1; ;) {
            let text = '';
            for (const row of page.list) {
              if (written >= maxRows) break;
              text += line(row);
              written++;
            }
            if (text) yield text;
            // A short page ends the list; so does the cap, or a total that shrank meanwhile.
            if (written >= maxRows || page.list.length < pageSize || written >= page.total) break;
            pageNum++;
            const next = await read(pageNum);
            if (next.code !== SUCCESS_CODE) {
              outcome = { status: 200, code: next.code, msg: boundedText(String(next.msg ?? ''), 200) };
              throw new GatewayError('UPSTREAM_BAD_ANSWER', `page ${pageNum} of the export answered code ${next.code}`);
            }
            page = pageOf(next.data);
          }
          outcome = { status: 200, code: SUCCESS_CODE };
        } catch (error) {
          outcome ??= { status: error instanceof GatewayError ? error.status : 500, code: null };
          throw error;
        } finally {
          // Recorded however it ends: a file cut short (the backend failed, the browser went away)
          // still let its rows out; the browser's download then fails rather than ending whole.
          await recordExport(written, outcome ?? { status: 200, code: null, msg: 'the export was cut short' });
        }
      }

      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${csvFileName(resource.id, new Date())}"`);
      reply.header(EXPORT_TOTAL_HEADER, String(total));
      reply.header(EXPORT_ROWS_HEADER, String(Math.min(total, maxRows)));
      return reply.send(Readable.from(file()));
    },
  );
}
