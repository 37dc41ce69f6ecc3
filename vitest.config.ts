import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    exclude: ['tests/bench/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits on state; a busy CI machine (the browser, the gateway and the sandbox on
    // two cores) may take longer than the default second to draw it.
    expect: { poll: { timeout: 10_000 } },
    // Browser suites each start a gateway and a Chromium; two at a time fits the 2-core machine.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
