import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../support/paths.js';
import { logFile, type BenchContext } from './context.js';

/** `node build.mjs` into dist/, its output in the run's log folder; rejects when it fails. */
export async function build(context: BenchContext): Promise<void> {
  const log = logFile(context, 'ui-build');
  const fd = openSync(log, 'a');
  const proc = spawn(process.execPath, [path.join(REPO_ROOT, 'build.mjs')], {
    cwd: REPO_ROOT,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
  if (code !== 0) throw new Error(`node build.mjs failed (exit ${code}); see ${log}`);
}
