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

export function consoleCalls(resource: Resource): ConsoleCall[] {
  const calls = resourceCalls(resource);
  const of = (method: 'GET' | 'POST', path: string, kind: ConsoleCall['kind'], action: string | null = null): ConsoleCall => ({
    resource,
    method,
    path,
    kind,
    action,
  });
  const actions = (names: readonly string[]) => [...new Set(names)].map((n) => of('POST', calls.action(n), 'action', n));
  switch (resource.kind) {
    case 'list':
      return [
        of('GET', calls.list, 'list'),
        of('GET', calls.detail, 'detail'),
        of('POST', calls.save, 'save'),
        of('POST', calls.remove, 'delete'),
        of('GET', calls.preview, 'preview'),
        ...actions((resource.actions ?? []).map((a) => a.name)),
      ];
    case 'settings':
      return [of('GET', calls.config, 'config'), of('POST', calls.config, 'saveConfig'), ...actions((resource.actions ?? []).map((a) => a.name))];
    case 'statistics':
      return [of('GET', calls.list, 'list')];
    case 'operation':
      return [...(resource.preview ? [of('GET', calls.preview, 'preview')] : []), ...actions([resource.run])];
  }
}
