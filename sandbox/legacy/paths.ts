import type { Resource } from '../../server/contract/index.js';
import legacyMap from '../legacy-map.json' with { type: 'json' };

/**
 * Which resources the dialect translates, read off the map that binds it (legacy-map.json), so the
 * two cannot disagree:
 * - a resource the map marks `unsupported` is not offered at all (the console hides its screen);
 * - a resource the map does not name is served at the contract's own paths and in its shapes.
 * The second is the dialect's default for a new screen, chosen over "unsupported" because the
 * gateway passes every resource a map leaves out through unchanged: a backend that adds a module
 * the console's way needs no map entry, and a new declaration works in this dialect too without
 * one. A map entry is only needed to translate a resource into the dialect's own paths and names.
 */
const entries = legacyMap.resources as Readonly<Record<string, { unsupported?: boolean }>>;

/** The screens the legacy backend does not offer at all. */
export const LEGACY_UNOFFERED: ReadonlySet<string> = new Set(
  Object.entries(entries)
    .filter(([, entry]) => entry.unsupported === true)
    .map(([id]) => id),
);

/** True when the dialect serves the resource at the contract's own paths and in its own shapes. */
export function servedUnchanged(resource: Resource): boolean {
  return entries[resource.id] === undefined;
}

/** Module names of a Java admin backend where the contract's ids read otherwise. */
const MODULES: Readonly<Record<string, string>> = {
  users: 'user',
  groups: 'group',
  admins: 'sys/user',
  operationLog: 'sys/log',
};

const kebab = (id: string) => id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Where the dialect serves a resource: /manage/user, /manage/invite-codes, ... */
export function legacyBase(resource: Resource): string {
  return `/manage/${MODULES[resource.id] ?? kebab(resource.id)}`;
}

/** The dialect's calls of one resource. */
export function legacyCalls(resource: Resource) {
  const base = legacyBase(resource);
  return {
    page: `${base}/page`,
    detail: `${base}/{id}`,
    add: `${base}/add`,
    update: `${base}/update`,
    remove: `${base}/remove/{ids}`,
    preview: `${base}/preview`,
    info: `${base}/info`,
    edit: `${base}/edit`,
    report: `${base}/report`,
    action: (name: string) => `${base}/${name}`,
  };
}
