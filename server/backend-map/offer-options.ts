import type { FieldDef, Resource } from '../contract/index.js';
import type { FieldMap } from './types.js';

/**
 * The options of a resource's select inputs (an action's or an operation's) that its map can send,
 * by input key, where the field's `values` name fewer than the contract offers: a value left out
 * would go to the backend unchanged, as nothing it knows (ejabberd announces to all or online,
 * never to "ios"). None when every input keeps all its options.
 */
export function inputOptions(
  resource: Resource,
  fields: Readonly<Record<string, FieldMap>> | undefined,
): Record<string, string[]> | null {
  const inputs: FieldDef[] = [];
  if (resource.kind === 'operation') inputs.push(...resource.inputs);
  if (resource.kind === 'list' || resource.kind === 'settings') {
    for (const action of resource.actions ?? []) inputs.push(...(action.inputs ?? []));
  }
  const out: Record<string, string[]> = {};
  for (const input of inputs) {
    const table = fields?.[input.key]?.values;
    if (input.kind !== 'select' || !input.options || !table || Object.hasOwn(out, input.key)) continue;
    const sent = input.options.filter((o) => Object.hasOwn(table, o));
    if (sent.length < input.options.length) out[input.key] = sent;
  }
  return Object.keys(out).length > 0 ? out : null;
}
