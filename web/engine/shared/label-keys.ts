import type { FieldDef, Resource } from '#contract';

/**
 * Where each screen label lives, and which labels a resource's screen shows. Plain functions of
 * the declaration, with no i18n machinery, so `npm run labels` (scripts/write-labels.ts) and the
 * i18n test walk RESOURCES with the very keys the engine asks for.
 */

export const fieldKey = (key: string) => `field.${key}`;
export const optionKey = (field: string, value: string | number | boolean) => `option.${field}.${String(value)}`;
export const actionKey = (name: string) => `action.${name}`;
export const resourceKey = (id: string) => `resource.${id}`;
export const resultKey = (key: string) => `result.${key}`;
/** The past-tense toast of an action ("Banned {{name}}"), where it has one. */
export const doneKey = (name: string) => `done.${name}`;

function fieldLabels(field: Pick<FieldDef, 'key' | 'options'>): string[] {
  return [fieldKey(field.key), ...(field.options ?? []).map((o) => optionKey(field.key, o))];
}

/**
 * Every label a resource's screen shows: its title (also its menu entry's, when the route names
 * none), its fields and their options, its actions and their inputs, its series.
 */
export function labelKeysOf(resource: Resource): string[] {
  const keys = [resourceKey(resource.id)];
  switch (resource.kind) {
    case 'list':
    case 'settings':
      for (const f of resource.fields) keys.push(...fieldLabels(f));
      for (const a of resource.actions ?? []) {
        keys.push(actionKey(a.name));
        for (const f of a.inputs ?? []) keys.push(...fieldLabels(f));
      }
      break;
    case 'operation':
      keys.push(actionKey(resource.run));
      for (const f of resource.inputs) keys.push(...fieldLabels(f));
      break;
    case 'statistics':
      for (const s of resource.series) keys.push(fieldKey(s.key));
      if (resource.dimension) keys.push(...fieldLabels(resource.dimension));
      break;
  }
  return keys;
}
