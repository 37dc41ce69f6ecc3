import { resourceCalls, type Resource } from '../contract/index.js';
import type { CallName } from './types.js';

/**
 * The console's calls of one resource as the gateway sees them arrive. `save` is one path for two
 * calls of the map (create without an id, update with one), told apart per request.
 */
export interface ConsoleCall {
  resource: Resource;
  method: 'GET' | 'POST';
  path: string;
  kind: CallName | 'save' | 'action';
  /** The action's name when kind is 'action'. */
  action: string | null;
}

/** The calls each kind of screen makes, in the order it lists them; a map naming another is a mistake worth stopping for. */
export const CALLS_OF: Record<Resource['kind'], readonly CallName[]> = {
  list: ['list', 'detail', 'create', 'update', 'delete', 'preview'],
  settings: ['config', 'saveConfig'],
  statistics: ['list'],
  operation: ['preview'],
};

/** How the console sends each call of a resource (create and update share the save path). */
export function consoleRoute(resource: Resource, name: CallName): { method: 'GET' | 'POST'; path: string } {
  const own = resourceCalls(resource);
  const routes: Record<CallName, { method: 'GET' | 'POST'; path: string }> = {
    list: { method: 'GET', path: own.list },
    detail: { method: 'GET', path: own.detail },
    create: { method: 'POST', path: own.save },
    update: { method: 'POST', path: own.save },
    delete: { method: 'POST', path: own.remove },
    config: { method: 'GET', path: own.config },
    saveConfig: { method: 'POST', path: own.config },
    preview: { method: 'GET', path: own.preview },
  };
  return routes[name];
}

/** The names of a resource's actions (an operation's one run), each once. */
export function actionNamesOf(resource: Resource): string[] {
  if (resource.kind === 'operation') return [resource.run];
  if (resource.kind === 'list' || resource.kind === 'settings')
    return [...new Set((resource.actions ?? []).map((a) => a.name))];
  return [];
}

export function consoleCalls(resource: Resource): ConsoleCall[] {
  const calls: ConsoleCall[] = [];
  for (const name of CALLS_OF[resource.kind]) {
    // An operation without a preview makes none; create and update arrive on one path, as `save`.
    if (name === 'preview' && resource.kind === 'operation' && !resource.preview) continue;
    if (name === 'update') continue;
    calls.push({ resource, ...consoleRoute(resource, name), kind: name === 'create' ? 'save' : name, action: null });
  }
  const path = resourceCalls(resource).action;
  for (const name of actionNamesOf(resource))
    calls.push({ resource, method: 'POST', path: path(name), kind: 'action', action: name });
  return calls;
}
