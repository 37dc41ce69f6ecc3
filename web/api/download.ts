import { settle } from './client.js';

/** A connection failure (network, a file cut short), shown and thrown as any call's. */
const broken = (path: string, status = 0): never => settle<never>(null, status, 'POST', path, false) as never;

/** A file the gateway streams (an export): its bytes as they arrive, and the headers that describe it. */
export interface FileAnswer {
  blob: Blob;
  headers: Headers;
}

/**
 * POSTs `body` and reads a file back, telling `onChunk` each piece of text as it arrives (for a
 * progress count). An answer in the envelope instead of a file is a refusal, shown and thrown as
 * any call's would be.
 */
export async function postForFile(
  path: string,
  body: unknown,
  onChunk?: (text: string) => void,
  signal?: AbortSignal,
): Promise<FileAnswer> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { accept: 'text/csv, application/json', 'content-type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    return broken(path);
  }
  if (/\bjson\b/i.test(response.headers.get('content-type') ?? '')) {
    const payload: unknown = await response.json().catch(() => null);
    settle(payload, response.status, 'POST', path, false);
    // A success in the envelope where a file was due: nothing to save.
    return broken(path, response.status);
  }
  if (!response.ok || !response.body) return broken(path, response.status);
  const parts: BlobPart[] = [];
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      onChunk?.(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    // The gateway cut the file short (the backend failed half-way): no partial file is saved.
    if (signal?.aborted) throw error;
    return broken(path);
  }
  return {
    blob: new Blob(parts, { type: response.headers.get('content-type') ?? 'application/octet-stream' }),
    headers: response.headers,
  };
}
