import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    exclude: ['tests/bench/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser suites each start a gateway and a Chromium; two at a time fits the 2-core machine.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
