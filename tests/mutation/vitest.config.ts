import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutation` runs against each mutant: the fast unit and gateway tests of the
 * module named by MUTATION_MODULE (all modules' when unset), never a browser or a spawned
 * gateway, whose code would not be the mutated copy.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const modules = JSON.parse(readFileSync(path.join(root, 'tests', 'mutation', 'modules.json'), 'utf8')) as Record<
  string,
  { tests: string[] }
>;
const chosen = process.env.MUTATION_MODULE;
if (chosen && !modules[chosen])
  throw new Error(`MUTATION_MODULE must be one of ${Object.keys(modules).join(', ')}, got "${chosen}"`);
const include = chosen ? modules[chosen]!.tests : [...new Set(Object.values(modules).flatMap((m) => m.tests))];

export default defineConfig({
  root,
  test: {
    include,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default'],
  },
});
