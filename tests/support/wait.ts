/** Waiting in tests: by polling a condition, or by being woken by whoever changes what it reads. */

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface PollOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/** Checks `condition` every `intervalMs` until it holds or `timeoutMs` passed; resolves whether it held. */
export async function pollUntil(
  condition: () => boolean | Promise<boolean>,
  { timeoutMs = 10_000, intervalMs = 10 }: PollOptions = {},
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() > deadline) return false;
    await sleep(intervalMs);
  }
}

/** pollUntil that throws `timed out waiting for <what>` when the condition never held. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  options: PollOptions = {},
): Promise<void> {
  if (!(await pollUntil(condition, options))) throw new Error(`timed out waiting for ${what}`);
}

export interface WakeWaitOptions {
  timeoutMs: number;
  /** The error when time runs out. */
  timedOut: () => Error;
  /** An error once the condition can no longer come true (the process exited, the stream ended); null while it still can. */
  hopeless?: () => Error | null;
}

/**
 * Waiters on state that changes by events (output of a process, chunks of a stream): the owner
 * calls notify() after each change, and every waiter checks its condition again.
 */
export class Waiters {
  private readonly waiters = new Set<() => void>();

  notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  async until(condition: () => boolean, { timeoutMs, timedOut, hopeless }: WakeWaitOptions): Promise<void> {
    if (condition()) return;
    await new Promise<void>((resolve, reject) => {
      const finish = (error?: Error) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const check = () => {
        if (condition()) return finish();
        const error = hopeless?.();
        if (error) finish(error);
      };
      const timer = setTimeout(() => finish(timedOut()), timeoutMs);
      this.waiters.add(check);
      check();
    });
  }
}
