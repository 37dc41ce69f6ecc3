import { spawnSync } from 'node:child_process';
import { test } from 'vitest';

/** CI services set CI (to `true`, `1`, or a name); `.ci/run` sets it too. Empty, 0 and false mean unset. */
export const IN_CI = !['', '0', 'false'].includes((process.env.CI ?? '').trim().toLowerCase());

/** Whether `name` is a program on PATH (or an absolute path that runs). */
export function hasProgram(name: string): boolean {
  return spawnSync('sh', ['-c', 'command -v "$1"', 'sh', name], { stdio: 'ignore' }).status === 0;
}

/**
 * Whether to skip a suite because something it needs is missing (`missing` lists what, empty when
 * nothing is). Outside CI the suite is skipped and says why. In CI it is skipped too, but a test
 * standing in for it fails: CI installs every tool the tests need, so a missing one there is a
 * broken CI, never a pass. Call at the top level of a test file: `describe.skipIf(skipWithout(...))`.
 */
export function skipWithout(missing: readonly string[], purpose: string): boolean {
  if (missing.length === 0) return false;
  const what = `${missing.join(', ')} missing, needed for ${purpose}`;
  if (IN_CI) {
    test(`has ${missing.join(', ')} (CI)`, () => {
      throw new Error(`${what}. CI (.ci/run) provides it: a missing tool there is a broken CI, not a pass.`);
    });
  } else {
    process.stderr.write(`skipped: ${what}\n`);
  }
  return true;
}
