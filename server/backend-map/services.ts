import type { SessionCredentials } from './auth.js';
import type { BackendMapFile } from './types.js';

/**
 * A backend split over services (OpenIM Chat's admin API on 10009 and its chat API on 10008): the
 * map's `services` names each by the environment variable holding its base URL, and a call names
 * its service. A service whose variable is unset is the sandbox's service of that name in sandbox
 * mode, else CHAT_BACKEND_URL, so one backend behind one address needs no more configuration.
 */

/** A service's variable: an upper-case name ending in _URL, so a map cannot borrow a secret's (SESSION_SECRET). */
export const SERVICE_ENV = /^[A-Z][A-Z0-9_]*_URL$/;

/** The gateway's own URL variables: a service borrowing one would be a mistake (REDIS_URL even carries a password). */
export const GATEWAY_URL_VARIABLES: readonly string[] = [
  'CHAT_BACKEND_URL',
  'FILE_SERVER_URL',
  'WEB_CLIENT_URL',
  'REDIS_URL',
];

/** Each service's base URL as its variable gives it, or null where unset (CHAT_BACKEND_URL then serves it). */
export function configuredServices(
  map: BackendMapFile,
  read: (variable: string) => string | null,
): Record<string, string | null> {
  return Object.fromEntries(Object.entries(map.services ?? {}).map(([name, service]) => [name, read(service.env)]));
}

/** Every service's base URL: its own, else the backend's (CHAT_BACKEND_URL, or the sandbox's). */
export function serviceUrls(
  configured: Readonly<Record<string, string | null>>,
  backend: string,
): Record<string, string> {
  return Object.fromEntries(Object.entries(configured).map(([name, url]) => [name, url ?? backend]));
}

/** In sandbox mode: each service whose variable is unset is the sandbox's service of that name, where it has one. */
export function withSandboxServices(
  configured: Readonly<Record<string, string | null>>,
  sandbox: Readonly<Record<string, string>>,
): Record<string, string | null> {
  return Object.fromEntries(
    Object.entries(configured).map(([name, url]) => [
      name,
      url ?? (Object.hasOwn(sandbox, name) ? sandbox[name]! : null),
    ]),
  );
}

/**
 * The session a call to `service` carries: a service whose `token` names a kept login value (OpenIM
 * Server, reached with the `imToken` OpenIM Chat's admin login hands out) gets that value as its
 * token; the user id, kept values and signer stay the session's. A session that kept no such value
 * (one from before the map named it) sends an empty token, which the backend refuses as it would.
 */
export function sessionForService(
  map: BackendMapFile | undefined,
  service: string | undefined,
  session: SessionCredentials | null,
): SessionCredentials | null {
  const name = service === undefined ? undefined : map?.services?.[service]?.token;
  if (!session || name === undefined) return session;
  return { ...session, token: session.kept?.[name] ?? '' };
}
