import { GatewayError } from '../errors.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A `since`/`until` query value (an ISO date or date-time) as epoch ms, for the logs the gateway
 * keeps (error log, audit trail); a bare `until` date covers that whole (UTC) day. Anything else is
 * the caller's mistake, answered 400 with the parameter's name.
 */
export function timeBound(name: string, value: string | undefined, endOfDay: boolean): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  const ms = ISO_TIME.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) throw new GatewayError('BAD_REQUEST', `${name} must be an ISO 8601 date or date-time`);
  return endOfDay && DATE_ONLY.test(text) ? ms + 86_399_999 : ms;
}
