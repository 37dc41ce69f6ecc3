import { signal } from '@preact/signals-react';

/**
 * The session ended and the administrator logged in again in place (the dialog over the page),
 * so the page and what was typed in it stayed. Whatever failed or was under way meanwhile asks
 * again: the frame registers that (it owns the query cache), and anything holding a connection of
 * the old session (the event stream) starts afresh when this count moves.
 */
export const sessionEpoch = signal(0);

type Handler = () => void;
const handlers = new Set<Handler>();

export function onSessionRestored(fn: Handler): () => void {
  handlers.add(fn);
  return () => void handlers.delete(fn);
}

export function sessionRestored(): void {
  sessionEpoch.value++;
  for (const fn of handlers) fn();
}
