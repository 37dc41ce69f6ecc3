import { GatewayError } from '../errors.js';
import type { RawAnswer } from './upstream.js';

/**
 * The JSON of an answer to a call the gateway translated (a backend map's call, its login): decoded
 * first, then parsed. A 404 without JSON is a path the backend lacks; other non-JSON is unusable.
 */
export async function readBackendJson(
  decode: (answer: RawAnswer, path: string) => Promise<Buffer>,
  answer: RawAnswer,
  method: string,
  sentPath: string,
): Promise<unknown> {
  const path = sentPath.split('?')[0]!;
  try {
    return JSON.parse((await decode(answer, path)).toString('utf8'));
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    if (answer.status === 404)
      throw new GatewayError('BACKEND_NO_SUCH_CALL', `${method} ${path}`, { data: { method, path } });
    throw new GatewayError(
      'UPSTREAM_BAD_ANSWER',
      `${method} ${path} answered HTTP ${answer.status} with a body that is not JSON`,
    );
  }
}
