import type { ListResource } from '../../../server/contract/index.js';
import type { SandboxStore } from '../../store/sandbox-store.js';
import type { ActionHandler, ListBinding } from './types.js';
import { listBinding } from './types.js';

/**
 * What a list resource does in the sandbox when nobody wrote it a binding: it is its declaration.
 * Its table is the store's generic one (list semantics from the fields, rows from its seed); list,
 * detail, save and delete are the routes' defaults. An action without code means setting fields on
 * the targeted rows: the values its declaration `sets` (publish: `{status: 'published'}`), then
 * those of its inputs that name fields of the record (a "set state" with a `state` input). An
 * action that does neither needs a hand-written binding: the sandbox refuses to start without one
 * rather than answer as if it had done something.
 */
export function genericBinding(store: SandboxStore, resource: ListResource): ListBinding<never> {
  const collection = store.table(resource);
  const keys = new Set(resource.fields.map((f) => f.key));
  const actions: Record<string, ActionHandler> = {};
  for (const action of resource.actions ?? []) {
    if (actions[action.name]) continue; // a row and a bulk variant share one call and one meaning
    const fixed = Object.entries(action.sets ?? {});
    const unknown = fixed.filter(([key]) => !keys.has(key) || key === 'id').map(([key]) => key);
    if (unknown.length > 0)
      throw new Error(`${resource.id}.${action.name} sets ${unknown.join(', ')}, which its records do not have`);
    const named = (action.inputs ?? [])
      .filter((input) => input.key !== 'id' && keys.has(input.key))
      .map((input) => input.key);
    if (fixed.length === 0 && named.length === 0) continue;
    actions[action.name] = ({ ids, inputs }) => {
      const patch: Record<string, unknown> = Object.fromEntries(fixed);
      for (const key of named) if (inputs[key] !== undefined) patch[key] = inputs[key];
      const targets = ids ?? collection.all().map((row) => row.id);
      let updated = 0;
      for (const id of targets) if (collection.update(id, patch)) updated++;
      return { updated };
    };
  }
  return listBinding({ collection, actions });
}
