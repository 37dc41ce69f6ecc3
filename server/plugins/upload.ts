import { Readable } from 'node:stream';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CALLS,
  GATEWAY_PATHS,
  UploadAnswerSchema,
  UploadLimitsSchema,
  UploadQuerySchema,
  checkUploadHead,
  checkUploadTail,
  cleanFileName,
  isEnvelope,
  uploadExtensions,
  type FileType,
  type UploadAnswer,
  type UploadKind,
  type UploadRefusal,
} from '../contract/index.js';
import type { PreparedUpload } from '../backend-map/engine.js';
import type { PrimaryChannel } from '../cluster/ipc.js';
import { GatewayError } from '../errors.js';
import { answerSchema, envelopeAnswer } from '../lib/answer-schema.js';
import { backendRequestHeaders } from '../lib/forwarded.js';
import { readBackendJson } from '../lib/backend-json.js';
import { FileTooLarge, IncomingFile } from '../uploads/file-stream.js';
import { multipartFrame } from '../uploads/multipart.js';
import { storedPath } from '../uploads/stored-path.js';
import { IpcQuotaStore, MemoryQuotaStore, RedisQuotaStore, quotaKey, type QuotaStore } from '../uploads/quota.js';
import { uploadPermissions } from '../uploads/screens.js';
import { recordUploads, type UploadTrail } from '../uploads/trail.js';
import { NO_STORE } from './security.js';

/**
 * POST /api/upload?kind=image|package&name=<file name>, the file itself as the body: the gateway
 * checks it (the name's extension, the file's own bytes, its size) and streams it on to the
 * backend's upload call (the contract's POST /manage/upload, or what the backend map binds as
 * `console.calls.upload`) as multipart/form-data, without ever holding the whole file. It answers
 * where the file server keeps it, with the size and MD5 it measured on the way. GET /api/upload
 * tells the UI the limits, so it can refuse a file before sending a byte of it.
 */

const limitsSchema = answerSchema(UploadLimitsSchema);
const uploadedSchema = answerSchema(UploadAnswerSchema);

function typeRefused(kind: UploadKind, refusal: UploadRefusal): GatewayError {
  const accepted = uploadExtensions(kind);
  const detail =
    refusal.reason === 'extension'
      ? `${kind === 'image' ? 'an image' : 'a package'} must be one of ${accepted.map((e) => `.${e}`).join(', ')}`
      : refusal.reason === 'empty'
        ? 'the file is empty'
        : `the file's contents are not what its name says${refusal.detected ? ` (they look like ${refusal.detected})` : ''}`;
  return new GatewayError('UPLOAD_TYPE_REFUSED', detail, {
    data: {
      kind,
      reason: refusal.reason,
      accepted,
      ...(refusal.reason === 'contents' ? { detected: refusal.detected } : {}),
    },
  });
}

function tooLarge(kind: UploadKind, maxBytes: number): GatewayError {
  return new GatewayError(
    'UPLOAD_TOO_LARGE',
    `${kind === 'image' ? 'an image' : 'a package'} may be at most ${maxBytes} bytes`,
    { data: { kind, maxBytes } },
  );
}

/** The declared body length, or null for a chunked body. */
function declaredLength(request: FastifyRequest): number | null {
  const raw = request.headers['content-length'];
  return typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : null;
}

export interface UploadPluginOptions {
  /** In a cluster worker without Redis: the primary, which keeps the one set of quota counts. */
  primary?: PrimaryChannel | null;
  /** Clock of the quota's day, for tests. */
  now?: () => number;
}

export default fp<UploadPluginOptions>(
  async (app, options) => {
    const maxBytes: Record<UploadKind, number> = {
      image: app.config.uploadImageMaxBytes,
      package: app.config.uploadPackageMaxBytes,
    };
    const map = app.backendMap;
    const now = options.now ?? Date.now;
    const allowed = uploadPermissions();
    const limits = { maxFiles: app.config.uploadDailyMaxFiles, maxBytes: app.config.uploadDailyMaxBytes };
    const quota: QuotaStore = app.redis
      ? new RedisQuotaStore(app.redis)
      : options.primary
        ? new IpcQuotaStore(options.primary)
        : new MemoryQuotaStore();
    const quotaRefused = () =>
      new GatewayError('UPLOAD_QUOTA_EXCEEDED', `at most ${limits.maxFiles} files and ${limits.maxBytes} bytes a day`, {
        data: { ...limits },
      });

    /** Only an account with a screen that takes this kind of file may upload one. */
    const mayUpload = async (request: FastifyRequest, kind: UploadKind): Promise<void> => {
      const held = await app.permissions.of(request.session!);
      if (held === 'unauthorized') throw new GatewayError('NOT_LOGGED_IN', 'the backend no longer takes this session');
      if (!held.some((permission) => allowed[kind].has(permission as never)))
        throw new GatewayError(
          'FORBIDDEN',
          `no screen of this account takes ${kind === 'image' ? 'images' : 'packages'}`,
          {
            data: { kind },
          },
        );
    };

    app.get(
      GATEWAY_PATHS.upload,
      { onRequest: app.sessions.require, schema: { response: { 200: limitsSchema } } },
      async (_request, reply) => {
        reply.header('cache-control', NO_STORE);
        return { code: 200, msg: 'ok', data: { maxBytes } };
      },
    );

    /** Where and how the file goes: the map's binding, or the contract's own call. */
    const prepare = (kind: UploadKind, name: string): PreparedUpload | null => {
      if (!map?.namesOwn('upload')) return null;
      const prepared = map.prepareUpload({ kind, name });
      if ('unsupported' in prepared) {
        throw new GatewayError('UNSUPPORTED_BY_BACKEND', prepared.unsupported, {
          data: { call: prepared.unsupported },
        });
      }
      return prepared;
    };

    /** Answers a refusal once what is left of the body is read (or, past the limit, on a connection about to close). */
    const refuse = async (reply: FastifyReply, file: IncomingFile | null, error: GatewayError) => {
      const drained = file ? await file.discard() : false;
      if (!drained) reply.header('connection', 'close');
      throw error;
    };

    const trails = new WeakMap<FastifyRequest, UploadTrail>();

    await app.register(async (scope) => {
      // Every upload a session makes goes into the audit trail, stored or refused, with its outcome.
      recordUploads(scope, trails);
      // The body is read here, chunk by chunk, never by a parser: BODY_LIMIT_BYTES is for JSON, not files.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      scope.withTypeProvider<TypeBoxTypeProvider>().post(
        GATEWAY_PATHS.upload,
        {
          onRequest: app.sessions.require,
          preHandler: app.sessionCalls.limit,
          schema: {
            querystring: UploadQuerySchema,
            // A refusal of the backend's (its envelope, code not 200) goes to the browser as any other call's would.
            response: { 200: Type.Union([uploadedSchema, envelopeAnswer]) },
          },
        },
        async (request, reply) => {
          reply.header('cache-control', NO_STORE);
          const { kind } = request.query;
          const name = cleanFileName(request.query.name);
          const trail: UploadTrail = { kind, name };
          trails.set(request, trail);
          try {
            await mayUpload(request, kind);
          } catch (error) {
            return refuse(reply, null, error as GatewayError);
          }
          const kindLimit = maxBytes[kind];
          const declared = declaredLength(request);
          // Refused before a byte is read: nothing of a body this large is worth receiving.
          if (declared !== null && declared > kindLimit) return refuse(reply, null, tooLarge(kind, kindLimit));
          const key = quotaKey(request.session!.userId, now());
          const charged = declared ?? 0;
          const left = await quota.charge(key, 1, charged, limits);
          if (left === null) {
            trail.quota = true;
            return refuse(reply, null, quotaRefused());
          }
          // A body of unknown length stops where the day's bytes run out, not only at its kind's limit.
          const byQuota = declared === null && left < kindLimit;
          const limit = byQuota ? left : kindLimit;
          const overLimit = () => (byQuota ? quotaRefused() : tooLarge(kind, kindLimit));
          let stored = false;
          try {
            const answer = await send(request, reply, kind, name, limit, declared, overLimit, trail);
            stored = trail.path !== undefined;
            return answer;
          } finally {
            // Nothing stored gives the charge back; a body of unknown length is charged what it measured.
            if (!stored) await quota.adjust(key, -1, -charged);
            else if (declared === null) await quota.adjust(key, 0, trail.size ?? 0);
          }
        },
      );

      async function send(
        request: FastifyRequest,
        reply: FastifyReply,
        kind: UploadKind,
        name: string,
        limit: number,
        declared: number | null,
        overLimit: () => GatewayError,
        trail: UploadTrail,
      ) {
        let prepared: PreparedUpload | null;
        try {
          prepared = prepare(kind, name);
        } catch (error) {
          return refuse(reply, null, error as GatewayError);
        }

        const file = new IncomingFile(request.raw[Symbol.asyncIterator](), limit);
        let type: FileType;
        let head: Buffer;
        try {
          head = await file.head();
          const checked = checkUploadHead(kind, name, head);
          if (!('type' in checked)) return await refuse(reply, file, typeRefused(kind, checked));
          type = checked.type;
        } catch (error) {
          if (error instanceof FileTooLarge) return refuse(reply, null, overLimit());
          throw error;
        }

        const frame = multipartFrame(
          prepared?.parts ?? [
            ['kind', kind],
            ['name', name],
          ],
          {
            part: prepared?.filePart ?? 'file',
            name: name || `upload.${type.extensions[0]}`,
            contentType: type.mediaType,
          },
        );
        // The file's own failure (too large, a disk image without its trailer), kept because
        // the backend call reports only that its body broke off.
        let failure: GatewayError | null = null;
        async function* body(): AsyncGenerator<Buffer> {
          yield frame.head;
          try {
            for await (const chunk of file.chunks()) yield chunk;
          } catch (error) {
            failure = error instanceof FileTooLarge ? overLimit() : null;
            throw error;
          }
          const refusal = checkUploadTail(type, head, file.tail());
          if (refusal) {
            failure = typeRefused(kind, refusal);
            throw failure;
          }
          yield frame.tail;
        }
        const sent = prepared?.request ?? { method: 'POST' as const, path: CALLS.upload };
        let answer;
        try {
          // A map's upload goes to its service's address (a file server split from the backend).
          answer = await app.sessionCalls.around(request, () =>
            app.upstreamFor(prepared?.request.service).request(sent.path, {
              method: sent.method,
              session: request.session,
              headers: backendRequestHeaders(request),
              streamBody: {
                contentType: frame.contentType,
                body: Readable.from(body(), { objectMode: false }),
                length: declared === null ? null : frame.head.length + declared + frame.tail.length,
                arrivalMs: app.config.requestTimeoutMs,
              },
            }),
          );
        } catch (error) {
          const reason: GatewayError =
            failure ??
            (error instanceof GatewayError
              ? error
              : new GatewayError('UPSTREAM_UNREACHABLE', undefined, { cause: error }));
          // The backend went away while the file was arriving: what is left of it is read and dropped.
          return refuse(reply, file, reason);
        }
        // The body has ended whole (the backend answered after its last byte): the figures are final.
        const complete = file.complete;

        const json = await readBackendJson(app.decodeAnswer, answer, sent.method, sent.path);
        let status = answer.status;
        let out: unknown = json;
        if (prepared && map) {
          ({ status, body: out } = map.answer(prepared, answer.status, answer.headers, json));
        } else {
          if (answer.status === 404)
            throw new GatewayError('BACKEND_NO_SUCH_CALL', `${sent.method} ${sent.path}`, { data: sent });
          if (!isEnvelope(json))
            throw new GatewayError('UPSTREAM_BAD_ANSWER', `${sent.path} answered without a {code, msg} envelope`);
        }
        if (!isEnvelope(out) || out.code !== 200) {
          // The backend's own refusal (no permission, logged in elsewhere, its own checks), as any call's.
          return reply.code(status >= 400 && status < 500 ? status : 200).send(out);
        }
        // A success answered before the whole file arrived stored a part of it at best.
        if (!complete)
          throw new GatewayError('UPSTREAM_BAD_ANSWER', `${sent.path} answered before the whole file was sent`);
        const figures = file.figures();
        const stored = storedPath(out.data);
        if (!stored) throw new GatewayError('UPSTREAM_BAD_ANSWER', `${sent.path} answered no path for the stored file`);
        const data: UploadAnswer = {
          ...stored,
          name,
          size: figures.size,
          md5: figures.md5,
          contentType: type.mediaType,
        };
        request.log.info({ kind, size: figures.size, type: type.id, path: stored.path }, 'upload stored');
        Object.assign(trail, { size: figures.size, md5: figures.md5, type: type.id, path: stored.path });
        return { code: 200, msg: typeof out.msg === 'string' ? out.msg : 'ok', data };
      }
    });
  },
  { name: 'upload', dependencies: ['session', 'session-calls', 'upstream', 'backend-map', 'permissions'] },
);
