import { RESOURCES, type Resource } from '../../../server/contract/index.js';
import type { SandboxStore } from '../../store/sandbox-store.js';
import type { Bindings } from '../resources.js';
import { financeBindings } from './finance.js';
import { genericBinding } from './generic.js';
import { operationBindings } from './operation.js';
import { siteBindings } from './site.js';
import { systemBindings } from './system.js';
import { userBindings } from './users.js';

/**
 * What every resource of the contract does in the sandbox, by resource id: the hand-written
 * bindings of the resources that do more than store rows (users, money, statistics ...), and the
 * generic one for every other list resource, so a plain screen needs nothing here.
 */
export function sandboxBindings(store: SandboxStore, resources: readonly Resource[] = RESOURCES): Bindings {
  const operation = operationBindings(store);
  const finance = financeBindings(store);
  const list = {
    ...systemBindings(store),
    ...userBindings(store),
    ...siteBindings(store),
    ...operation.list,
    ...finance.list,
  };
  for (const resource of resources) {
    if (resource.kind === 'list' && !list[resource.id]) list[resource.id] = genericBinding(store, resource);
  }
  return { list, settings: finance.settings, statistics: operation.statistics, operation: operation.operation };
}
