import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import {
  CALLS,
  RESOURCES,
  TOKEN_HEADER,
  USER_ID_HEADER,
  resourceCalls,
  type Envelope,
  type Resource,
} from '../../server/contract/index.js';
import { SandboxError } from '../errors.js';
import { bodyObject, queryObject } from '../routes/common.js';
import type { UploadStore } from '../routes/uploads.js';
import { LegacyFields, dayFromLegacy } from './fields.js';
import { LEGACY_UNOFFERED, legacyCalls, servedUnchanged } from './paths.js';

/**
 * SANDBOX_DIALECT=legacy: the same data served the way a typical Java admin backend would, as a
 * translation layer over the contract's routes (so the data stays one). Each legacy call is
 * turned into the contract's call, run inside the sandbox, and its answer turned back. The
 * contract's own paths of the translated resources answer "no such interface" from outside.
 *
 * The dialect: `GET {base}/page?current&size&search&orderBy&order&<filters>&<date>Start/End`
 * answering `{code: 0, message, data: {records, total, current, size}}`; `GET {base}/{id}`;
 * `POST {base}/add`, `POST {base}/update`, `POST {base}/remove/{ids}` (ids joined by commas);
 * `POST {base}/{action}` with `{id}` or `{idList}` (a reason is a `remark`); settings at
 * `GET {base}/info` and `POST {base}/edit`; statistics at `GET {base}/report?beginDate&endDate`
 * (page envelope). Fields per LegacyFields.
 */

type Row = Record<string, unknown>;
/** Marks the dialect's own calls into the contract's routes (with a secret of this start). */
const INTERNAL_HEADER = 'x-sandbox-internal';

/** The page calls' envelope: code 0 and `message`. */
function pageEnvelope(answer: Envelope, data: (inner: Row) => unknown): Row {
  if (answer.code !== 200) return { code: answer.code, message: answer.msg };
  return { code: 0, message: 'success', data: data((answer.data ?? {}) as Row) };
}

function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The dialect's upload call: a common Java admin backend's, with its own part names and answer. */
export const LEGACY_UPLOAD_PATH = '/manage/common/upload';

export function registerLegacyDialect(
  app: FastifyInstance,
  uploads: UploadStore,
  resources: readonly Resource[] = RESOURCES,
): { isInternal(request: FastifyRequest): boolean } {
  const secret = randomBytes(16).toString('hex');
  const hidden = new Set<string>();

  async function inner(request: FastifyRequest, method: 'GET' | 'POST', path: string, input: Row): Promise<Envelope> {
    const headers: Record<string, string> = { [INTERNAL_HEADER]: secret };
    for (const name of [TOKEN_HEADER, USER_ID_HEADER]) {
      const value = request.headers[name.toLowerCase()];
      if (typeof value === 'string') headers[name] = value;
    }
    let url = path;
    let payload: string | undefined;
    if (method === 'GET') {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(input))
        if (value !== undefined && value !== null) search.append(key, String(value));
      const query = search.toString();
      if (query) url += `?${query}`;
    } else {
      payload = JSON.stringify(input);
      headers['content-type'] = 'application/json';
    }
    const res = await app.inject({
      method,
      url,
      headers,
      remoteAddress: request.ip,
      ...(payload === undefined ? {} : { payload }),
    });
    return res.json() as Envelope;
  }

  /** A refusal keeps its code and message; a form field it names gets the dialect's name. */
  const plain = (answer: Envelope, fields: LegacyFields, data: (inner: unknown) => unknown = (d) => d): Row => {
    if (answer.code !== 200) {
      const detail =
        isRow(answer.data) && typeof answer.data.field === 'string'
          ? { data: { field: fields.nameOf(answer.data.field) } }
          : {};
      return { code: answer.code, msg: answer.msg, ...detail };
    }
    return { code: 200, msg: answer.msg, data: data(answer.data) };
  };

  const route = (
    method: HTTPMethods,
    url: string,
    handler: (request: FastifyRequest, params: Record<string, string>) => Promise<Row>,
  ) =>
    app.route({
      method,
      url: url.replace(/\{(\w+)\}/g, ':$1'),
      handler: async (request) => handler(request, request.params as Record<string, string>),
    });

  for (const resource of resources) {
    if (servedUnchanged(resource)) continue;
    const own = resourceCalls(resource);
    for (const path of Object.values(own)) if (typeof path === 'string') hidden.add(path);
    if (resource.kind !== 'statistics' && resource.kind !== 'operation')
      for (const a of resource.actions ?? []) hidden.add(own.action(a.name));
    if (resource.kind === 'operation') hidden.add(own.action(resource.run));
    if (LEGACY_UNOFFERED.has(resource.id)) continue;
    registerResource(resource);
  }

  function listQuery(fields: LegacyFields, query: Row): Row {
    // Keyed by the client's query names: `__proto__` must stay a member, never a prototype.
    const out: Row = Object.create(null) as Row;
    for (const [name, value] of Object.entries(query)) {
      if (name === 'current') out.pageNum = value;
      else if (name === 'size') out.pageSize = value;
      else if (name === 'search') out.keyword = value;
      else if (name === 'order') continue;
      else if (name === 'orderBy') out.sort = `${query.order === 'desc' ? '-' : ''}${fields.keyOf(String(value))}`;
      else if (name.endsWith('Start') || name.endsWith('End')) {
        const end = name.endsWith('End');
        const key = fields.keyOf(name.slice(0, end ? -3 : -5));
        out[`${key}${end ? 'To' : 'From'}`] = dayFromLegacy(String(value));
      } else {
        const decoded = fields.decode(name, value);
        out[fields.keyOf(name)] = typeof decoded === 'string' ? decoded : String(decoded);
      }
    }
    return out;
  }

  function registerResource(resource: Resource): void {
    const own = resourceCalls(resource);
    const calls = legacyCalls(resource);
    const fields = new LegacyFields(resource);
    const row = (value: unknown) => (isRow(value) ? fields.toLegacy(value) : value);
    const body = (request: FastifyRequest): Row =>
      request.body === undefined || request.body === null ? {} : bodyObject(request.body);

    if (resource.kind === 'list') {
      route('GET', calls.page, async (request) => {
        const answer = await inner(request, 'GET', own.list, listQuery(fields, queryObject(request)));
        const query = queryObject(request);
        return pageEnvelope(answer, (data) => ({
          records: (Array.isArray(data.list) ? data.list : []).map(row),
          total: data.total,
          current: Number(query.current ?? 1),
          size: Number(query.size ?? 10),
          ...(isRow(data.totals) ? { totals: fields.toLegacy(data.totals) } : {}),
        }));
      });
      // Users and groups answer their record inside a larger detail ({user, wallet, ...}).
      const nested = resource.id === 'users' ? 'user' : resource.id === 'groups' ? 'group' : null;
      route('GET', calls.detail, async (request, params) =>
        plain(await inner(request, 'GET', own.detail, { id: params.id }), fields, (data) =>
          nested && isRow(data) ? { ...data, [nested]: row(data[nested]) } : row(data),
        ),
      );
      route('POST', calls.add, async (request) =>
        plain(await inner(request, 'POST', own.save, fields.fromLegacy(body(request))), fields, row),
      );
      route('POST', calls.update, async (request) => {
        const input = fields.fromLegacy(body(request));
        if (input.id === undefined) return { code: 400, msg: 'id is required' };
        return plain(await inner(request, 'POST', own.save, input), fields, row);
      });
      route('POST', calls.remove, async (request, params) => {
        const ids = String(params.ids)
          .split(',')
          .map((id) => (/^\d+$/.test(id) ? Number(id) : id));
        return plain(await inner(request, 'POST', own.remove, { ids }), fields);
      });
      route('GET', calls.preview, async (request) =>
        plain(await inner(request, 'GET', own.preview, fields.fromLegacy(queryObject(request))), fields),
      );
    } else if (resource.kind === 'settings') {
      route('GET', calls.info, async (request) => plain(await inner(request, 'GET', own.config, {}), fields, row));
      route('POST', calls.edit, async (request) =>
        plain(await inner(request, 'POST', own.config, fields.fromLegacy(body(request))), fields, row),
      );
    } else if (resource.kind === 'statistics') {
      route('GET', calls.report, async (request) => {
        const query = queryObject(request);
        const input: Row = {};
        if (query.beginDate !== undefined) input.startDate = query.beginDate;
        if (query.endDate !== undefined) input.endDate = query.endDate;
        const answer = await inner(request, 'GET', own.list, input);
        return pageEnvelope(answer, (data) => {
          const records = (Array.isArray(data.list) ? data.list : []).map(row);
          return { records, total: records.length };
        });
      });
    }
    if (resource.kind === 'list' || resource.kind === 'settings') {
      for (const name of new Set((resource.actions ?? []).map((a) => a.name))) {
        route('POST', calls.action(name), async (request) => {
          const input = body(request);
          const out: Row = Object.create(null) as Row;
          for (const [key, value] of Object.entries(input)) {
            if (key === 'idList') out.ids = value;
            else if (key === 'remark') out.reason = value;
            else out[key] = value;
          }
          return plain(await inner(request, 'POST', own.action(name), out), fields);
        });
      }
    }
  }

  // Parts `fileType` (1 an image, 2 a package) and `uploadFile`; the answer names the file by its
  // address under /plate/ and its size, in the page calls' envelope.
  hidden.add(CALLS.upload);
  app.post(LEGACY_UPLOAD_PATH, async (request) => {
    const kinds: Record<string, string> = { '1': 'image', '2': 'package' };
    try {
      const stored = await uploads.receive(
        request,
        { kind: 'fileType', file: 'uploadFile' },
        Date.now(),
        (value) => kinds[value] ?? value,
      );
      return {
        code: 0,
        message: 'success',
        data: { fileUrl: `/plate/${stored.path}`, fileSize: stored.size, fileName: stored.name },
      };
    } catch (error) {
      if (error instanceof SandboxError) return { code: error.code, message: error.message };
      throw error;
    }
  });

  const isInternal = (request: FastifyRequest) => request.headers[INTERNAL_HEADER] === secret;
  // The translated resources are reachable in the dialect only; the inner calls carry the secret.
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (isInternal(request) || !hidden.has(path)) return;
    return reply.code(200).send({ code: 404, msg: `No such interface: ${request.method} ${path}` });
  });
  return { isInternal };
}
