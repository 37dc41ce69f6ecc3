import { signal } from '@preact/signals-react';
import {
  GATEWAY_PATHS,
  SESSION_ENDED_EVENT,
  WITHDRAWAL_EVENT,
  type SessionEndedEvent,
  type WithdrawalCountEvent,
} from '#contract/gateway';

/** Pending withdrawal reviews, fed by the gateway's event stream. */
export const withdrawalCount = signal(0);
/** Whether the stream has told the count yet (before that, 0 means "not known"). */
export const withdrawalCountKnown = signal(false);

/** Parses one event's data; anything malformed is ignored rather than zeroing the badge. */
export function parseCount(data: unknown): number | null {
  if (typeof data !== 'string') return null;
  try {
    const value = (JSON.parse(data) as Partial<WithdrawalCountEvent>).count;
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : null;
  } catch {
    return null;
  }
}

/** Why the stream's session ended; a notice without a known reason counts as the backend's. */
export function endedReason(data: unknown): SessionEndedEvent['reason'] {
  if (typeof data !== 'string') return 'backend';
  try {
    const reason = (JSON.parse(data) as Partial<SessionEndedEvent>).reason;
    return reason === 'logged-out' || reason === 'expired' ? reason : 'backend';
  } catch {
    return 'backend';
  }
}

/** A rise over the previous value asks for attention; the first value of a stream does not. */
export function shouldChime(previous: number | null, next: number): boolean {
  return previous !== null && next > previous;
}

const RETRY_MIN_MS = 2_000;
const RETRY_MAX_MS = 30_000;

/**
 * Opens the event stream and keeps it open. The browser reconnects by itself after a dropped
 * connection, but gives up for good (readyState CLOSED) when a reconnect attempt gets an HTTP
 * error, e.g. a 502/503 while the gateway restarts; then a new EventSource is made after a delay.
 */
export interface WithdrawalHandlers {
  /** The count rose: a new application waits (the app plays a chime). */
  onRise(): void;
  /** The gateway ended the stream because the session is gone, and why. */
  onSessionEnded(reason: SessionEndedEvent['reason']): void;
}

export function connectWithdrawals({ onRise, onSessionEnded }: WithdrawalHandlers): () => void {
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = RETRY_MIN_MS;
  let previous: number | null = null;
  let stopped = false;

  const open = () => {
    if (stopped) return;
    source = new EventSource(GATEWAY_PATHS.events, { withCredentials: true });
    source.addEventListener('open', () => {
      delay = RETRY_MIN_MS;
    });
    source.addEventListener(WITHDRAWAL_EVENT, (event) => {
      const next = parseCount((event as MessageEvent).data);
      if (next === null) return;
      if (shouldChime(previous, next)) onRise();
      previous = next;
      withdrawalCount.value = next;
      withdrawalCountKnown.value = true;
    });
    // No screen call may be coming to reveal the lost session (an admin idle on a page), so the
    // stream's own notice does, with the reason: the backend dropping the token (logged in
    // elsewhere) or the gateway ending the session (a logout in another tab, its maximum age).
    // No reconnect: with the dead session it would only earn 401s.
    source.addEventListener(SESSION_ENDED_EVENT, (event) => {
      stopped = true;
      source?.close();
      source = null;
      onSessionEnded(endedReason((event as MessageEvent).data));
    });
    source.onerror = () => {
      if (!source || source.readyState !== EventSource.CLOSED) return;
      source.close();
      source = null;
      clearTimeout(timer);
      timer = setTimeout(open, delay);
      delay = Math.min(delay * 2, RETRY_MAX_MS);
    };
  };
  open();

  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
    source = null;
  };
}
