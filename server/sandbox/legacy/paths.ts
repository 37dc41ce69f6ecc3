import type { Resource } from '../../contract/index.js';

/** The screens the legacy backend does not offer at all. */
export const LEGACY_UNOFFERED: ReadonlySet<string> = new Set(['googleVerify', 'suggestions', 'channelStatistics']);

/** Screens it serves at the contract's own paths and in its own shapes. */
export const LEGACY_UNCHANGED: ReadonlySet<string> = new Set(['termsOfUse', 'appInterface', 'dataClean']);

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
