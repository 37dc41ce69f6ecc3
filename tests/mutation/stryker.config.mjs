// @ts-check
import { readFileSync } from 'node:fs';

/**
 * Stryker for one module at a time (MUTATION_MODULE, set by tests/mutation/run.ts): the module's
 * files mutated, its tests (tests/mutation/vitest.config.ts) run against each mutant that they
 * cover. Results and the incremental file go under reports/mutation/<module>/ (ignored by git),
 * so a second run only tries the mutants whose code or tests changed.
 */
const modules = JSON.parse(readFileSync(new URL('./modules.json', import.meta.url), 'utf8'));
const name = process.env.MUTATION_MODULE;
if (!name || !modules[name]) throw new Error(`MUTATION_MODULE must be one of ${Object.keys(modules).join(', ')}`);
const reports = `reports/mutation/${name}`;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'tests/mutation/vitest.config.ts', related: false },
  mutate: modules[name].mutate,
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  timeoutMS: 15_000,
  incremental: true,
  incrementalFile: `${reports}/incremental.json`,
  reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
  jsonReporter: { fileName: `${reports}/mutation.json` },
  htmlReporter: { fileName: `${reports}/mutation.html` },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  tempDirName: 'node_modules/.cache/stryker-tmp',
  ignorePatterns: [
    'dist',
    'data',
    'reports',
    'docs',
    'deploy',
    '.ci',
    'tests/bench/results',
    'tests/e2e',
    'tests/image',
    'tests/soak',
  ],
  thresholds: { high: 90, low: 75, break: null },
};
