import { RESOURCES } from '../contract/index.js';
import { formatPointer } from './pointer.js';
import { GATEWAY_URL_VARIABLES } from './services.js';
import { PLACEHOLDER_FILTERS, parsePlaceholder, placeholdersOf } from './template.js';
import type { BackendMapFile, CallMap, OwnCallMap } from './types.js';

/**
 * The start-time checks of the expressions that span calls and services (`services`, `service`,
 * `also`, `days`, `result`, placeholder filters): what the schema cannot say, each refusal naming
 * its place in the file.
 */

type AnyCall = CallMap | OwnCallMap;

/** Stops the start: a JSON Pointer into the map and what is wrong there (load.ts names the file). */
export type Fail = (at: string, reason: string) => never;

/** Own calls whose answer is no record to merge: the badge's bare number, the logout's nothing. */
const SINGLE_OWN_CALLS = new Set(['withdrawalCount', 'logout']);

interface Place {
  at: (string | number)[];
  /** May it have `also` calls (settings, statistics, a detail, a create or delete, the console's figures)? */
  spread: boolean;
  /** May its answer be counts keyed by day (statistics, the console's figures)? */
  days: boolean;
  /** The console keys a `days` may name; null: not checked (own calls' answers are typed in TypeScript only). */
  keys: readonly string[] | null;
}

function checkPlaceholders(fail: Fail, template: unknown, at: (string | number)[]): void {
  for (const spec of placeholdersOf(template as never)) {
    for (const filter of parsePlaceholder(spec).filters) {
      if (!PLACEHOLDER_FILTERS.includes(filter)) {
        fail(formatPointer(at), `"{${spec}}": no filter "${filter}" (known: ${PLACEHOLDER_FILTERS.join(', ')})`);
      }
    }
  }
}

function checkCall(fail: Fail, map: BackendMapFile, call: AnyCall, place: Place, part = false): void {
  const at = (...rest: (string | number)[]) => formatPointer([...place.at, ...rest]);
  if (call.service !== undefined && !Object.hasOwn(map.services ?? {}, call.service)) {
    fail(
      at('service'),
      `no service "${call.service}" in the map's services (known: ${Object.keys(map.services ?? {}).join(', ') || 'none'})`,
    );
  }
  if (call.template !== undefined) checkPlaceholders(fail, call.template, [...place.at, 'template']);
  const answer = call.answer ?? {};
  if (answer.result !== undefined) checkPlaceholders(fail, answer.result, [...place.at, 'answer', 'result']);
  if (answer.days !== undefined) {
    if (!place.days)
      fail(at('answer', 'days'), 'counts keyed by day are read for statistics and the console’s figures only');
    for (const key of Object.keys(answer.days)) {
      if (place.keys && !place.keys.includes(key))
        fail(at('answer', 'days', key), `no series "${key}" (its series: ${place.keys.join(', ')})`);
    }
  }
  if (call.also === undefined) return;
  if (part) fail(at('also'), 'a call of `also` has no `also` of its own: list every call in the first one');
  if (!place.spread) {
    fail(
      at('also'),
      'one console call over several backend calls is for settings (config, saveConfig), statistics, a detail, a create, a delete and the console’s figures',
    );
  }
  call.also.forEach((item, index) => {
    const itemAt = (...rest: string[]) => at('also', index, ...rest);
    if (item.path === undefined) fail(itemAt(), 'a call of `also` needs its own path');
    // Each request of a plan is its first call's; the `also` calls follow the plan once.
    for (const member of ['unsupported', 'bulk', 'sort', 'each', 'repeat', 'merge'] as const) {
      if (member in item) fail(itemAt(member), `a call of \`also\` has no ${member}`);
    }
    if (item.template !== undefined && (item.in === 'query' || item.in === 'form' || item.body !== undefined)) {
      fail(itemAt('template'), 'a template is a JSON body: drop "in" or "body"');
    }
    checkCall(fail, map, item, { ...place, at: [...place.at, 'also', index] }, true);
  });
}

export function checkExpressions(map: BackendMapFile, fail: Fail): void {
  for (const [name, service] of Object.entries(map.services ?? {})) {
    if (GATEWAY_URL_VARIABLES.includes(service.env)) {
      fail(
        formatPointer(['services', name, 'env']),
        `${service.env} is the gateway's own setting: name a variable of this service's`,
      );
    }
    const kept = Object.keys(map.auth?.login.answer.keep ?? {});
    if (service.token !== undefined && !kept.includes(service.token)) {
      fail(
        formatPointer(['services', name, 'token']),
        `"${service.token}" is not a value the login keeps (auth.login.answer.keep: ${kept.join(', ') || 'none'})`,
      );
    }
  }
  const byId = new Map(RESOURCES.map((r) => [r.id, r]));
  for (const [id, entry] of Object.entries(map.resources ?? {})) {
    const resource = byId.get(id);
    if (!resource) continue;
    for (const [name, call] of Object.entries(entry.calls ?? {})) {
      const statistics = resource.kind === 'statistics' && name === 'list';
      // A detail may be read over several calls too: a record from one, its relations from another
      // (OpenIM Server's group from get_groups_info, its members from get_group_member_list).
      // So may a record's create or delete: ejabberd's default friend is two shared roster groups,
      // each made and filled by calls of their own.
      const spread =
        statistics ||
        (resource.kind === 'settings' && (name === 'config' || name === 'saveConfig')) ||
        (resource.kind === 'list' && (name === 'detail' || name === 'create' || name === 'delete'));
      const keys = resource.kind === 'statistics' ? resource.series.map((s) => s.key) : null;
      checkCall(fail, map, call, { at: ['resources', id, 'calls', name], spread, days: statistics, keys });
    }
    for (const [name, call] of Object.entries(entry.actions ?? {})) {
      const place = { at: ['resources', id, 'actions', name], spread: false, days: false, keys: null };
      checkCall(fail, map, call, place);
      if (call.bulk) checkCall(fail, map, call.bulk, { ...place, at: [...place.at, 'bulk'] });
    }
  }
  for (const [name, call] of Object.entries(map.console?.calls ?? {})) {
    const single = SINGLE_OWN_CALLS.has(name);
    checkCall(fail, map, call, { at: ['console', 'calls', name], spread: !single, days: !single, keys: null });
  }
}
