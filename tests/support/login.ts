import type { Page } from 'playwright-core';
import { CALLS } from '../../server/contract/index.js';

/** The sandbox backend's seeded accounts. */
export const ACCOUNTS = {
  admin: { account: 'admin', password: 'admin123' },
  operator: { account: 'operator', password: 'operator123' },
  checker: { account: 'checker', password: 'checker123' },
} as const;

export type Account = keyof typeof ACCOUNTS;

/** The cookies of Set-Cookie lines, as the one Cookie header a browser would send back. */
export function cookieHeader(setCookie: readonly string[]): string {
  return setCookie.map((line) => line.split(';')[0]!).join('; ');
}

/** POST /manage/logIn through the gateway at `baseUrl` as the login form sends it. */
export function postLogin(baseUrl: string, who: Account): Promise<Response> {
  return fetch(`${baseUrl}${CALLS.login}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ ...ACCOUNTS[who], code: '' }),
  });
}

/**
 * Logs `who` in through the gateway, checks that the session comes back as cookies only (no token
 * in the body), and returns them as a Cookie header.
 */
export async function logIn(baseUrl: string, who: Account = 'admin'): Promise<string> {
  const res = await postLogin(baseUrl, who);
  const body = (await res.json()) as { code?: number; data?: Record<string, unknown> };
  if (res.status !== 200 || body.code !== 200)
    throw new Error(`logging in as ${who} answered HTTP ${res.status}, code ${String(body.code)}`);
  if (body.data && 'token' in body.data) throw new Error('the login answer carried the token to the browser');
  const cookie = cookieHeader(res.headers.getSetCookie());
  if (!/(^|; )token=[^;]+/.test(cookie) || !/(^|; )userId=[^;]+/.test(cookie))
    throw new Error(`the login set no session cookies: ${cookie}`);
  return cookie;
}

/** The login form's fields, found by their English labels. */
export function loginForm(page: Page) {
  return {
    account: page.getByLabel('Account'),
    password: page.getByLabel('Password', { exact: true }),
    submit: page.getByRole('button', { name: 'Log in' }),
  };
}

/** Fills the login form as `who` and sends it; the caller waits for what it needs next. */
export async function submitLogin(page: Page, who: Account): Promise<void> {
  const form = loginForm(page);
  await form.account.fill(ACCOUNTS[who].account);
  await form.password.fill(ACCOUNTS[who].password);
  await form.submit.click();
}
