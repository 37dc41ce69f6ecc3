import type { SandboxStore } from '../../store/sandbox-store.js';
import type { Bindings } from '../resources.js';
import { financeBindings } from './finance.js';
import { operationBindings } from './operation.js';
import { siteBindings } from './site.js';
import { systemBindings } from './system.js';
import { userBindings } from './users.js';

/** What every resource of the contract does in the sandbox, by resource id. */
export function sandboxBindings(store: SandboxStore): Bindings {
  const operation = operationBindings(store);
  const finance = financeBindings(store);
  return {
    list: { ...systemBindings(store), ...userBindings(store), ...siteBindings(store), ...operation.list, ...finance.list },
    settings: finance.settings,
    statistics: operation.statistics,
    operation: operation.operation,
  };
}
