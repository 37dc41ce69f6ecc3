import { defineConfig } from 'vitest/config';

const BROWSER_TESTS = 'tests/e2e/**/*.test.ts';

export default defineConfig({
  test: {
    exclude: ['tests/bench/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits on state; a busy CI machine (the browser, the gateway and the sandbox on
    // two cores) may take longer than the default second to draw it.
    expect: { poll: { timeout: 10_000 } },
    // Browser suites each start a gateway and share one Chromium; two files at a time fits the
    // 2-core machine.
    maxWorkers: 2,
    reporters: ['default'],
    // Two projects only so that the browser tests' Chromium (a global setup) starts when a
    // browser test runs, not for `npx vitest run tests/server`. Name a file as usual.
    projects: [
      {
        extends: true,
        test: { name: 'e2e', include: [BROWSER_TESTS], globalSetup: ['tests/support/chromium-server.ts'] },
      },
      {
        extends: true,
        test: { name: 'node', include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'], exclude: [BROWSER_TESTS] },
      },
    ],
  },
});
