import { GatewayError } from '../errors.js';
import type { FieldBinding } from './fields.js';
import type { CallMap } from './types.js';

type Row = Record<string, unknown>;

/** A date filter's bounds are the field's key with `From` or `To`. */
const DATE_BOUND = /^(.+)(?:From|To)$/;

const given = (value: unknown) => value !== undefined && value !== null && value !== '';

/**
 * A list call's filters checked against what the backend can do with them: a filter on a field
 * the map marks `filter: false` (its backend takes no such parameter, or ignores it) and a list
 * without a filter the call `needs` are refused with 400 naming the field, so the screen never
 * shows an unfiltered list as if it were filtered, nor a backend's refusal of a missing parameter.
 */
export function checkListFilters(map: CallMap, fields: FieldBinding, input: Row): void {
  for (const key in input) {
    if (!given(input[key])) continue;
    const field = fields.byKey.get(key) ?? fields.byKey.get(DATE_BOUND.exec(key)?.[1] ?? '');
    if (field?.unfiltered)
      throw new GatewayError('BAD_REQUEST', `this backend cannot filter by ${field.key}`, {
        data: { field: field.key },
      });
  }
  for (const key of map.needs ?? [])
    if (!given(input[key]))
      throw new GatewayError('BAD_REQUEST', `this backend lists these records only filtered by ${key}`, {
        data: { field: key },
      });
}
