import type { ListResource, Resource } from '../resource.js';
import { SYSTEM_RESOURCES } from './system.js';
import { USER_RESOURCES } from './users.js';
import { SITE_CONFIG_RESOURCES } from './site-config.js';
import { OPERATION_RESOURCES } from './operation.js';
import { FINANCE_RESOURCES } from './finance.js';
import { APP_SETTINGS_RESOURCES } from './app-settings.js';

export * from './system.js';
export * from './users.js';
export * from './site-config.js';
export * from './operation.js';
export * from './finance.js';
export * from './app-settings.js';

/**
 * Every management resource, area by area in menu order; the sandbox serves each, and a parity
 * test checks the UI's screens against them. Counts (in tests, in the docs) are read off this
 * list, never written down.
 */
export const RESOURCES: readonly Resource[] = [
  ...SYSTEM_RESOURCES,
  ...USER_RESOURCES,
  ...SITE_CONFIG_RESOURCES,
  ...OPERATION_RESOURCES,
  ...FINANCE_RESOURCES,
  ...APP_SETTINGS_RESOURCES,
];

/** The list resources by id: what a list screen, the header search and the menu's early call look up. */
export const LIST_RESOURCES: ReadonlyMap<string, ListResource> = new Map(
  RESOURCES.filter((r): r is ListResource => r.kind === 'list').map((r) => [r.id, r]),
);
