import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  CALLS,
  UPLOAD_HEAD_BYTES,
  UPLOAD_KINDS,
  UPLOAD_TAIL_BYTES,
  checkUploadHead,
  checkUploadTail,
  cleanFileName,
  type UploadKind,
} from '../../server/contract/index.js';
import { badRequest, ok } from '../errors.js';
import { MultipartError, boundaryOf, readMultipart } from '../lib/multipart.js';

/**
 * The sandbox's file server: uploads written under its data folder (`<DATA_DIR>/uploads/...`),
 * served back at /plate/uploads/... as a chat backend's file server would. A file is written to
 * a temporary name as it arrives and renamed only once it is whole and checked, so a broken-off
 * or refused upload leaves nothing behind.
 */

/** The largest file the sandbox stores; the gateway's own limits are lower. */
const SANDBOX_UPLOAD_MAX_BYTES = 1024 * 1024 * 1024;

const FOLDERS: Record<UploadKind, string> = { image: 'images', package: 'packages' };
const STORED = /^uploads\/(images|packages)\/\d{4}\/\d{2}\/[0-9a-f]{32}\.[a-z0-9]{2,5}$/;

const MEDIA_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
  svg: 'image/svg+xml',
};

export interface StoredUpload {
  path: string;
  name: string;
  size: number;
  md5: string;
}

/** Where the parts of an upload call are, as one dialect names them. */
export interface UploadParts {
  kind: string;
  file: string;
}

export class UploadStore {
  constructor(private readonly dataDir: string) {}

  /** The file on disk behind a /plate/ path, or null when the path is not an upload's. */
  fileOf(platePath: string): string | null {
    return STORED.test(platePath) ? path.join(this.dataDir, ...platePath.split('/')) : null;
  }

  /** Reads an upload call's body, writes its file, checks it, and keeps it. Refusals are the envelope's 400. */
  async receive(
    request: FastifyRequest,
    names: UploadParts,
    now: number,
    kindOf: (value: string) => string = (value) => value,
  ): Promise<StoredUpload> {
    const boundary = boundaryOf(request.headers['content-type']);
    if (!boundary) throw badRequest('An upload is sent as multipart/form-data');
    const fields = new Map<string, string>();
    const temp = path.join(this.dataDir, 'uploads', 'incoming', `${randomBytes(16).toString('hex')}.part`);
    await mkdir(path.dirname(temp), { recursive: true });
    const hash = createHash('md5');
    let out: WriteStream | null = null;
    let fileName: string | null = null;
    let size = 0;
    let head = Buffer.alloc(0);
    let tail = Buffer.alloc(0);
    try {
      await readMultipart(request.raw, boundary, {
        field: (name, value) => fields.set(name, value),
        file: (part) => {
          if (part.name !== names.file || out) throw badRequest(`Unexpected file part ${part.name}`);
          fileName = cleanFileName(part.filename ?? '');
          const stream = createWriteStream(temp);
          // A write still on its way to the disk when a refused upload destroys the stream fails
          // with ERR_STREAM_DESTROYED; unheard, that error would end the process. The upload's own
          // outcome is told by the calls below (a drain or end waiting on it rejects).
          stream.on('error', () => {});
          out = stream;
          return {
            write: async (chunk) => {
              size += chunk.length;
              if (size > SANDBOX_UPLOAD_MAX_BYTES) throw badRequest('The file is too large');
              hash.update(chunk);
              if (head.length < UPLOAD_HEAD_BYTES)
                head = Buffer.concat([head, chunk.subarray(0, UPLOAD_HEAD_BYTES - head.length)]);
              tail = Buffer.concat([tail, chunk]).subarray(-UPLOAD_TAIL_BYTES);
              // Backpressure: the disk takes the file as fast as it can, no faster (once() drops its listeners after).
              if (!stream.write(chunk)) await once(stream, 'drain');
            },
            end: () =>
              new Promise<void>((resolve, reject) =>
                stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
              ),
          };
        },
      });
      const given = fields.get(names.kind);
      const kind = (given === undefined ? undefined : kindOf(given)) as UploadKind | undefined;
      if (!kind || !UPLOAD_KINDS.includes(kind))
        throw badRequest(`${names.kind} must be one of ${UPLOAD_KINDS.join(', ')}`);
      if (fileName === null) throw badRequest(`The part ${names.file} with the file is missing`);
      const checked = checkUploadHead(kind, fileName, head);
      if (!('type' in checked)) throw badRequest(`The file is not an accepted ${kind} (${checked.reason})`);
      const refusal = checkUploadTail(checked.type, head, tail);
      if (refusal) throw badRequest(`The file is not an accepted ${kind} (${refusal.reason})`);
      const day = new Date(now);
      const folder = `uploads/${FOLDERS[kind]}/${day.getUTCFullYear()}/${String(day.getUTCMonth() + 1).padStart(2, '0')}`;
      const stored = `${folder}/${randomBytes(16).toString('hex')}.${checked.type.extensions[0]}`;
      await mkdir(path.join(this.dataDir, folder), { recursive: true });
      await rename(temp, path.join(this.dataDir, stored));
      return { path: stored, name: fileName, size, md5: hash.digest('hex') };
    } catch (error) {
      (out as WriteStream | null)?.destroy();
      await rm(temp, { force: true });
      if (error instanceof MultipartError) throw badRequest(`The upload body is not readable: ${error.message}`);
      throw error;
    }
  }

  /** GET /plate/uploads/...: the stored file, typed by its extension (files other than images as bytes). */
  async serve(platePath: string, reply: FastifyReply): Promise<FastifyReply | null> {
    const file = this.fileOf(platePath);
    if (!file) return null;
    const found = await stat(file).catch(() => null);
    if (!found?.isFile()) return null;
    const extension = platePath.slice(platePath.lastIndexOf('.') + 1);
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-length', String(found.size))
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .type(MEDIA_TYPES[extension] ?? 'application/octet-stream')
      .send(createReadStream(file));
  }
}

/** The contract's upload call: parts `kind`, `name`, `file`; answers the stored path under /plate/. */
export function registerUploads(app: FastifyInstance, uploads: UploadStore): void {
  // The body is the upload call's to read, as it streams: no parser buffers it first.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
  app.post(CALLS.upload, async (request) => {
    const stored = await uploads.receive(request, { kind: 'kind', file: 'file' }, Date.now());
    return ok(stored);
  });
}
