/**
 * `npm run mutation [module...] [-- stryker flags]`: Stryker over the modules whose tests must
 * catch a broken product (tests/mutation/modules.json), one module at a time, then the score of
 * each from its report. Not part of `npm test`: a full run takes hours on a 2-core machine (see
 * docs/mutation.md); the incremental file under reports/mutation/ makes the next run try only what
 * changed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../support/paths.js';

interface Mutant {
  status: string;
}
interface Report {
  files: Record<string, { mutants: Mutant[] }>;
}

const modules = Object.keys(
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'tests', 'mutation', 'modules.json'), 'utf8')) as object,
);
// Module names first, then Stryker's own flags with their values (`codec --concurrency 1`).
const args = process.argv.slice(2);
const firstFlag = args.findIndex((a) => a.startsWith('-'));
const named = firstFlag === -1 ? args : args.slice(0, firstFlag);
const flags = firstFlag === -1 ? [] : args.slice(firstFlag);
for (const name of named)
  if (!modules.includes(name)) throw new Error(`no module "${name}"; one of ${modules.join(', ')}`);
const chosen = named.length > 0 ? named : modules;

let failed = false;
for (const name of chosen) {
  console.log(`\n=== mutation testing: ${name} ===`);
  const run = spawnSync('npx', ['stryker', 'run', 'tests/mutation/stryker.config.mjs', ...flags], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    env: { ...process.env, MUTATION_MODULE: name },
  });
  if (run.status !== 0) failed = true;
}

/** Stryker's score: killed and timed-out mutants over every mutant a test could have caught or did not reach. */
function score(report: Report): { counts: Record<string, number>; score: number } {
  const counts: Record<string, number> = {};
  for (const file of Object.values(report.files))
    for (const m of file.mutants) counts[m.status] = (counts[m.status] ?? 0) + 1;
  const detected = (counts.Killed ?? 0) + (counts.Timeout ?? 0);
  const undetected = (counts.Survived ?? 0) + (counts.NoCoverage ?? 0);
  return { counts, score: detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected) };
}

console.log('\nmodule        score   killed  timeout  survived  no coverage');
for (const name of chosen) {
  const file = path.join(REPO_ROOT, 'reports', 'mutation', name, 'mutation.json');
  if (!existsSync(file)) {
    console.log(`${name.padEnd(12)}  no report`);
    continue;
  }
  const { counts, score: value } = score(JSON.parse(readFileSync(file, 'utf8')) as Report);
  const n = (status: string) => String(counts[status] ?? 0).padStart(7);
  console.log(
    `${name.padEnd(12)} ${value.toFixed(1).padStart(6)}% ${n('Killed')} ${n('Timeout')}  ${n('Survived')}  ${n('NoCoverage')}`,
  );
}
process.exit(failed ? 1 : 0);
