import { ApiError } from '../../api/client.js';

/**
 * A selection the gateway sent to the backend one id at a time, which the backend took in part:
 * the refusal's `data` says which ids went through and why each other one did not (the backend
 * map's per-id calls answer `{done, refused: [{id, code, msg}]}`).
 */
export interface PartlyDone {
  done: string[];
  refused: { id: string; message: string }[];
}

export function partlyDone(error: unknown): PartlyDone | null {
  if (!(error instanceof ApiError)) return null;
  const data = error.data as { done?: unknown; refused?: unknown } | undefined;
  if (typeof data !== 'object' || data === null || !Array.isArray(data.done) || !Array.isArray(data.refused))
    return null;
  const refused = data.refused
    .filter((r): r is { id: unknown; msg?: unknown } => typeof r === 'object' && r !== null && 'id' in r)
    .map((r) => ({ id: String(r.id), message: typeof r.msg === 'string' && r.msg !== '' ? r.msg : error.message }));
  return { done: data.done.map(String), refused };
}
