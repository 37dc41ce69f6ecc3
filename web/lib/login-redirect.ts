import { safeRedirectPath } from '#contract/gateway';

/** The login page, asked to come back to `wanted` afterwards. */
export function loginUrl(wanted: string): string {
  return `/login?redirect=${encodeURIComponent(wanted)}`;
}

/** Where the login page sends the user once logged in: the redirect target, when it stays on this site. */
export function afterLoginTarget(search: string): string {
  const redirect = new URLSearchParams(search).get('redirect');
  return safeRedirectPath(redirect ?? '/');
}
