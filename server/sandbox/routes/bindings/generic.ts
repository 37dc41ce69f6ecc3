import type { ListResource } from '../../../contract/index.js';
import type { SandboxStore } from '../../store/sandbox-store.js';
import type { ActionHandler, ListBinding } from './types.js';
import { listBinding } from './types.js';

/**
 * What a list resource does in the sandbox when nobody wrote it a binding: it is its declaration.
 * Its table is the store's generic one (list semantics from the fields, rows from its seed); list,
 * detail, save and delete are the routes' defaults; an action sets the record fields its inputs
 * name on the targeted rows (a "set state" with a `state` input), the one meaning an action can
 * have without code. An action whose inputs name no field needs a hand-written binding: the
 * sandbox refuses to start without one rather than answer as if it had done something.
 */
export function genericBinding(store: SandboxStore, resource: ListResource): ListBinding<never> {
  const collection = store.table(resource);
  const keys = new Set(resource.fields.map((f) => f.key));
  const actions: Record<string, ActionHandler> = {};
  for (const action of resource.actions ?? []) {
    const sets = (action.inputs ?? [])
      .filter((input) => input.key !== 'id' && keys.has(input.key))
      .map((input) => input.key);
    if (sets.length === 0) continue;
    actions[action.name] = ({ ids, inputs }) => {
      const patch: Record<string, unknown> = {};
      for (const key of sets) if (inputs[key] !== undefined) patch[key] = inputs[key];
      const targets = ids ?? collection.all().map((row) => row.id);
      let updated = 0;
      for (const id of targets) if (collection.update(id, patch)) updated++;
      return { updated };
    };
  }
  return listBinding({ collection, actions });
}
