import { formatPointer } from './pointer.js';
import type { BackendMapFile, CallMap } from './types.js';

/**
 * What the schema cannot check of a call's plan members (schema-call.ts): the session values it
 * names exist, and each kind of plan sits on the call it serves. `fail` throws the map's error.
 */
export function checkPlans(map: BackendMapFile, fail: (at: string, reason: string) => never): void {
  const keep = map.auth?.login.answer.keep ?? {};
  if (Object.hasOwn(keep, 'userId')) {
    fail(
      '/auth/login/answer/keep/userId',
      'a call\'s "session" reads "userId" as the login\'s user id: keep this value under another name',
    );
  }
  const known = ['userId', ...Object.keys(keep)];
  const check = (call: CallMap, path: string[], where: 'delete' | 'saveConfig' | 'bulk' | 'action' | 'other') => {
    const at = (...rest: string[]) => formatPointer([...path, ...rest]);
    for (const [param, name] of Object.entries(call.session ?? {})) {
      if (!map.auth)
        fail(at('session', param), 'session values come from the map\'s own login: this map has no "auth"');
      if (!known.includes(name))
        fail(
          at('session', param),
          `"${name}" is not a session value (userId or one the login keeps: ${known.join(', ')})`,
        );
    }
    const plans = (['each', 'repeat', 'merge'] as const).filter((k) => call[k] !== undefined);
    if (plans.length > 1) fail(at(plans[1]!), `a call has one plan: ${plans.join(' and ')} cannot go together`);
    if (call.each && where !== 'delete' && where !== 'bulk')
      fail(at('each'), "one request per id serves a delete or an action's bulk call (the calls that carry {ids})");
    if (call.repeat && where !== 'action')
      fail(at('repeat'), "a repeated call is an action's (its count is one of the action's inputs)");
    if (call.merge && where !== 'saveConfig') fail(at('merge'), "a merged save is a settings screen's saveConfig");
  };
  for (const [id, entry] of Object.entries(map.resources ?? {})) {
    for (const [name, call] of Object.entries(entry.calls ?? {})) {
      if (!call) continue;
      check(
        call,
        ['resources', id, 'calls', name],
        name === 'delete' ? 'delete' : name === 'saveConfig' ? 'saveConfig' : 'other',
      );
      if (call.merge && (entry.unsupported || entry.calls?.config?.unsupported)) {
        fail(
          formatPointer(['resources', id, 'calls', name, 'merge']),
          'a merged save reads the settings first: the config call must be bound',
        );
      }
    }
    for (const [name, call] of Object.entries(entry.actions ?? {})) {
      check(call, ['resources', id, 'actions', name], 'action');
      if (call.bulk)
        check(
          { ...call, each: undefined, repeat: undefined, ...call.bulk },
          ['resources', id, 'actions', name, 'bulk'],
          'bulk',
        );
    }
  }
}
