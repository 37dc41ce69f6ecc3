import { Readable } from 'node:stream';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CALLS,
  GATEWAY_PATHS,
  UPLOAD_KINDS,
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
import { GatewayError } from '../errors.js';
import { answerSchema } from '../lib/answer-schema.js';
import { backendRequestHeaders } from '../lib/forwarded.js';
import { readBackendJson } from '../lib/backend-json.js';
import { FileTooLarge, IncomingFile } from '../uploads/file-stream.js';
import { multipartFrame } from '../uploads/multipart.js';
import { storedPath } from '../uploads/stored-path.js';
import { NO_STORE } from './security.js';

/**
 * POST /api/upload?kind=image|package&name=<file name>, the file itself as the body: the gateway
 * checks it (the name's extension, the file's own bytes, its size) and streams it on to the
 * backend's upload call (the contract's POST /manage/upload, or what the backend map binds as
 * `console.calls.upload`) as multipart/form-data, without ever holding the whole file. It answers
 * where the file server keeps it, with the size and MD5 it measured on the way. GET /api/upload
 * tells the UI the limits, so it can refuse a file before sending a byte of it.
 */

interface UploadQuery {
  kind: UploadKind;
  name: string;
}

const limitsSchema = answerSchema({
  type: 'object',
  required: ['maxBytes'],
  properties: {
    maxBytes: {
      type: 'object',
      required: [...UPLOAD_KINDS],
      properties: { image: { type: 'integer' }, package: { type: 'integer' } },
    },
  },
});

const uploadedSchema = answerSchema({
  type: 'object',
  required: ['path', 'url', 'name', 'size', 'md5', 'contentType'],
  properties: {
    path: { type: 'string' },
    url: { type: ['string', 'null'] },
    name: { type: 'string' },
    size: { type: 'integer' },
    md5: { type: 'string' },
    contentType: { type: 'string' },
  },
});

/** A refusal of the backend's (its envelope, code not 200) goes to the browser as any other call's would. */
const refusalSchema = {
  type: 'object',
  required: ['code', 'msg'],
  properties: { code: { type: 'integer' }, msg: { type: 'string' }, data: {} },
} as const;

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

export default fp(
  async (app) => {
    const maxBytes: Record<UploadKind, number> = {
      image: app.config.uploadImageMaxBytes,
      package: app.config.uploadPackageMaxBytes,
    };
    const map = app.backendMap;

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

    await app.register(async (scope) => {
      // The body is read here, chunk by chunk, never by a parser: BODY_LIMIT_BYTES is for JSON, not files.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      scope.post<{ Querystring: UploadQuery }>(
        GATEWAY_PATHS.upload,
        {
          onRequest: app.sessions.require,
          preHandler: app.sessionCalls.limit,
          schema: {
            querystring: {
              type: 'object',
              required: ['kind', 'name'],
              additionalProperties: false,
              properties: {
                kind: { type: 'string', enum: [...UPLOAD_KINDS] },
                name: { type: 'string', minLength: 1, maxLength: 255 },
              },
            },
            response: { 200: { anyOf: [uploadedSchema, refusalSchema] } },
          },
        },
        async (request, reply) => {
          reply.header('cache-control', NO_STORE);
          const { kind } = request.query;
          const name = cleanFileName(request.query.name);
          const limit = maxBytes[kind];
          const declared = declaredLength(request);
          // Refused before a byte is read: nothing of a body this large is worth receiving.
          if (declared !== null && declared > limit) return refuse(reply, null, tooLarge(kind, limit));
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
            if (error instanceof FileTooLarge) return refuse(reply, null, tooLarge(kind, limit));
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
              failure = error instanceof FileTooLarge ? tooLarge(kind, limit) : null;
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
          if (!stored)
            throw new GatewayError('UPSTREAM_BAD_ANSWER', `${sent.path} answered no path for the stored file`);
          const data: UploadAnswer = {
            ...stored,
            name,
            size: figures.size,
            md5: figures.md5,
            contentType: type.mediaType,
          };
          request.log.info({ kind, size: figures.size, type: type.id, path: stored.path }, 'upload stored');
          return { code: 200, msg: typeof out.msg === 'string' ? out.msg : 'ok', data };
        },
      );
    });
  },
  { name: 'upload', dependencies: ['session', 'session-calls', 'upstream', 'backend-map'] },
);
