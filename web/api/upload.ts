import { GATEWAY_PATHS, NOT_LOGGED_IN_ERROR } from '#contract/gateway';
import type { UploadAnswer, UploadKind, UploadLimits } from '#contract/uploads';
import { api, sessionEnded } from './client.js';

/**
 * Uploads through the gateway (POST /api/upload), with the progress of the bytes sent: XHR,
 * because fetch tells nothing of an upload's progress. Every refusal comes back as an
 * UploadFailure with a reason the form words in the reader's language.
 */

export type UploadFailureReason =
  | 'tooLarge'
  | 'extension'
  | 'empty'
  | 'contents'
  /** The backend map leaves uploads out. */
  | 'unsupported'
  /** The backend's own refusal, in its words. */
  | 'refused'
  /** The account holds no screen that takes this kind of file. */
  | 'forbidden'
  /** The account's daily quota of files or bytes is used up. */
  | 'quota'
  | 'connection'
  | 'cancelled'
  | 'session';

export class UploadFailure extends Error {
  constructor(
    readonly reason: UploadFailureReason,
    message: string,
    readonly detail: { maxBytes?: number; maxFiles?: number; detected?: string | null } = {},
  ) {
    super(message);
    this.name = 'UploadFailure';
  }
}

export async function fetchUploadLimits(signal?: AbortSignal): Promise<UploadLimits> {
  const env = await api.get<UploadLimits>(GATEWAY_PATHS.upload, undefined, { signal, quiet: true });
  return env.data ?? { maxBytes: { image: 0, package: 0 } };
}

interface Answer {
  code?: unknown;
  msg?: unknown;
  error?: unknown;
  data?: unknown;
}

/** What one answer of the gateway means: the stored file, or why not. */
export function readUploadAnswer(status: number, body: Answer | null): UploadAnswer | UploadFailure {
  const msg = typeof body?.msg === 'string' ? body.msg : `HTTP ${status}`;
  const data = (typeof body?.data === 'object' && body.data !== null ? body.data : {}) as Record<string, unknown>;
  if (body === null || status >= 500) return new UploadFailure('connection', msg);
  if (body.error === 'UPLOAD_TOO_LARGE') return new UploadFailure('tooLarge', msg, { maxBytes: Number(data.maxBytes) });
  if (body.error === 'UPLOAD_TYPE_REFUSED') {
    const reason = data.reason === 'extension' || data.reason === 'empty' ? data.reason : 'contents';
    return new UploadFailure(reason, msg, { detected: typeof data.detected === 'string' ? data.detected : null });
  }
  if (body.error === 'UNSUPPORTED_BY_BACKEND') return new UploadFailure('unsupported', msg);
  if (body.error === 'FORBIDDEN') return new UploadFailure('forbidden', msg);
  if (body.error === 'UPLOAD_QUOTA_EXCEEDED')
    return new UploadFailure('quota', msg, { maxFiles: Number(data.maxFiles), maxBytes: Number(data.maxBytes) });
  if (body.error === NOT_LOGGED_IN_ERROR) return new UploadFailure('session', msg);
  if (body.code !== 200 || typeof data.path !== 'string') return new UploadFailure('refused', msg);
  return data as unknown as UploadAnswer;
}

export interface UploadOptions {
  /** Bytes sent so far, of the file's size. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

export function uploadFile(
  file: Blob,
  name: string,
  kind: UploadKind,
  options: UploadOptions = {},
): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const query = new URLSearchParams({ kind, name });
    xhr.open('POST', `${GATEWAY_PATHS.upload}?${query}`);
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('accept', 'application/json');
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) =>
      options.onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
    const abort = () => xhr.abort();
    options.signal?.addEventListener('abort', abort, { once: true });
    const settle = () => options.signal?.removeEventListener('abort', abort);
    xhr.onload = () => {
      settle();
      let body: Answer | null;
      try {
        body = JSON.parse(xhr.responseText) as Answer;
      } catch {
        body = null;
      }
      const outcome = readUploadAnswer(xhr.status, body);
      if (outcome instanceof UploadFailure) {
        if (outcome.reason === 'session') sessionEnded();
        reject(outcome);
      } else resolve(outcome);
    };
    xhr.onerror = () => {
      settle();
      reject(new UploadFailure('connection', 'The upload could not reach the gateway'));
    };
    xhr.onabort = () => {
      settle();
      reject(new UploadFailure('cancelled', 'The upload was cancelled'));
    };
    xhr.send(file);
  });
}
