import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { startEjabberd } from '../support/ejabberd.js';
import { describeEjabberd } from '../support/ejabberd-suite.js';
import { REPO_ROOT } from '../support/paths.js';

/**
 * The test ejabberd leaves nothing behind: stop() ends its VM and removes its folder, and a VM
 * whose test process dies without stopping it (a crashed or killed vitest worker) stops itself.
 * A leaked VM holds 100 MB and two ports until the machine reboots.
 */

/** Running: a zombie (exited, waiting for a parent that may never reap it) counts as gone. */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
};

describeEjabberd('the test ejabberd', () => {
  const leftovers: number[] = [];
  afterEach(() => {
    // Only what this file started, and only when an assertion failed before it went.
    for (const pid of leftovers.splice(0)) if (alive(pid)) process.kill(-pid, 'SIGKILL');
  });

  it('stop() ends the VM and its process group and removes its folder', async () => {
    const server = await startEjabberd();
    leftovers.push(server.pid);
    expect(alive(server.pid)).toBe(true);
    expect(existsSync(server.dir)).toBe(true);
    await server.stop();
    expect(alive(server.pid)).toBe(false);
    expect(() => process.kill(-server.pid, 0)).toThrow();
    expect(existsSync(server.dir)).toBe(false);
    await expect(server.api('status')).rejects.toThrow();
  }, 120_000);

  it('stops by itself when the process that started it is killed', async () => {
    const script = [
      "import { startEjabberd } from './tests/support/ejabberd.ts';",
      'const server = await startEjabberd();',
      'process.stdout.write(JSON.stringify({ pid: server.pid, dir: server.dir }) + "\\n");',
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const owner = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    let dir: string | null = null;
    owner.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = new Promise((resolve) => owner.once('exit', resolve));
    try {
      await expect.poll(() => output.includes('\n') || owner.exitCode !== null, { timeout: 90_000 }).toBe(true);
      const started = JSON.parse(output) as { pid: number; dir: string };
      const { pid } = started;
      dir = started.dir;
      leftovers.push(pid);
      expect(alive(pid)).toBe(true);
      // SIGKILL: no exit hook runs in the owner; only the closed stdin pipe tells the VM.
      owner.kill('SIGKILL');
      await exited;
      await expect.poll(() => alive(pid), { timeout: 30_000 }).toBe(false);
    } finally {
      owner.kill('SIGKILL');
      // The owner died before it could remove the folder.
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
