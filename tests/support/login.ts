import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { CALLS } from '../../server/contract/index.js';
import { SAME_ORIGIN } from '../server/support/gateway.js';

/*
 * Logging in, written once. The gateway trusts only the `token` cookie it sealed at a login, so a
 * test that needs a session logs in as a browser does: through the gateway, to the backend's
 * login. Three ways in: logInInject (an app of buildApp(), no socket), logInOver (a listening
 * gateway, over HTTP) and submitLogin (the form, in Chromium). The fake backends' accounts are in
 * fake-session.ts, the sandbox's here.
 */

/** The sandbox backend's seeded accounts. */
export const ACCOUNTS = {
  admin: { account: 'admin', password: 'admin123' },
  operator: { account: 'operator', password: 'operator123' },
  checker: { account: 'checker', password: 'checker123' },
} as const;

export type Account = keyof typeof ACCOUNTS;

/** What the login form sends; `code` is the authenticator code, empty when two-step is off. */
export interface Credentials {
  account: string;
  password: string;
  code?: string;
}

/** Cookies by name, as inject({ cookies }) takes them. */
export type Cookies = Record<string, string>;

const credentialsOf = (who: Account | Credentials): Credentials => (typeof who === 'string' ? ACCOUNTS[who] : who);

/** The cookies of Set-Cookie lines, as the one Cookie header a browser would send back. */
export function cookieHeader(setCookie: readonly string[]): string {
  return setCookie.map((line) => line.split(';')[0]!).join('; ');
}

/** POST /manage/logIn through the gateway at `baseUrl` as the login form sends it. */
export function postLogin(baseUrl: string, who: Account | Credentials): Promise<Response> {
  return fetch(`${baseUrl}${CALLS.login}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ code: '', ...credentialsOf(who) }),
  });
}

/**
 * Logs in through an app built with buildApp() (inject), as the login form does: HTTP 200, code
 * 200, a token cookie. Returns the cookies it set, ready for `inject({ cookies })`.
 */
export async function logInInject(
  app: FastifyInstance,
  who: Account | Credentials,
  headers: Record<string, string> = SAME_ORIGIN,
): Promise<Cookies> {
  const response = await app.inject({
    method: 'POST',
    url: CALLS.login,
    headers,
    payload: { code: '', ...credentialsOf(who) },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json(), response.body).toMatchObject({ code: 200 });
  const cookies = Object.fromEntries(response.cookies.map((cookie) => [cookie.name, cookie.value]));
  expect(cookies.token, 'the login set no token cookie').toBeTruthy();
  return cookies;
}

/**
 * Logs in through a listening gateway (HTTP 200, code 200, a token cookie); returns the Cookie
 * header a browser would send back.
 */
export async function logInOver(baseUrl: string, who: Account | Credentials): Promise<string> {
  const response = await postLogin(baseUrl, who);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(JSON.parse(text)).toMatchObject({ code: 200 });
  const cookie = cookieHeader(response.headers.getSetCookie());
  expect(cookie, 'the login set no token cookie').toMatch(/(^|; )token=[^;]+/);
  return cookie;
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
