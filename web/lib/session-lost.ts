import { signal } from '@preact/signals-react';

/**
 * The gateway refused the session (logged out in another tab, idle or too old): the UI drops
 * what it knew of the session, and the guard then sends the user to the login form with the page
 * they were on as redirect. Unlike a backend 401 (logged in elsewhere), no dialog is shown: the
 * login page says why.
 */
type Handler = () => void;

let handler: Handler | null = null;

/** Set while the login page should explain that the last session ended. */
export const sessionEndedNotice = signal(false);

/** Registered once by the app shell, which owns the session state and the router. */
export function onSessionLost(fn: Handler): void {
  handler = fn;
}

export function sessionLost(): void {
  sessionEndedNotice.value = true;
  handler?.();
}
