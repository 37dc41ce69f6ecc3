import { afterAll, beforeAll, describe } from 'vitest';
import { skipWithout } from './ci.js';
import { ejabberdMissing, startEjabberd, type Ejabberd, type EjabberdOptions } from './ejabberd.js';

/**
 * A describe block that needs a real ejabberd: skipped with a note where Debian's package is not
 * installed, failing under CI (which installs it, .ci/run).
 */
export function describeEjabberd(name: string, body: () => void): void {
  describe.skipIf(skipWithout(ejabberdMissing(), 'the tests against a real ejabberd'))(name, body);
}

/**
 * One private ejabberd for the test file (or describe block): started before its tests, stopped
 * after them even when they fail. Read `.server` inside tests and hooks.
 */
export function useEjabberd(options: EjabberdOptions = {}): { readonly server: Ejabberd } {
  let server: Ejabberd | null = null;
  beforeAll(async () => {
    server = await startEjabberd(options);
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);
  return {
    get server() {
      if (!server) throw new Error('ejabberd is not started (read .server inside a test or hook)');
      return server;
    },
  };
}
