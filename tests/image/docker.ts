import { execFile, spawnSync } from 'node:child_process';

/**
 * The docker command line, for tests that run the real image. The engine is whichever DOCKER_HOST
 * names (.ci/run starts its own on a private socket); containers use the host's network, since
 * the engine runs without a bridge, so each one is given a free port of its own.
 */

/** The image under test: what `.ci/build-image` and `docker compose build` tag. */
export const IMAGE = process.env.CONSOLE_IMAGE?.trim() || 'chat-admin-console:latest';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `docker ...args`; never throws on a non-zero exit (the test reads `code`). */
export function docker(args: string[], timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      'docker',
      args,
      { timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number')
          return reject(new Error(`docker ${args.join(' ')}: ${error.message}\n${stderr}`));
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}

/** `docker ...args` that must succeed; its stdout, trimmed. */
export async function dockerOk(args: string[], timeoutMs?: number): Promise<string> {
  const run = await docker(args, timeoutMs);
  if (run.code !== 0) throw new Error(`docker ${args.join(' ')} exited ${run.code}\n${run.stderr}${run.stdout}`);
  return run.stdout.trim();
}

/** Why the image cannot be tested here (no docker, no engine, no image), or null when it can. */
export function imageMissing(): string | null {
  const result = spawnSync('docker', ['image', 'inspect', '--format', '{{.Id}}', IMAGE], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (result.error) return `the docker command (${result.error.message})`;
  if (result.status !== 0)
    return `the image ${IMAGE} on the engine at ${process.env.DOCKER_HOST ?? 'the default socket'} (${result.stderr.trim()})`;
  return null;
}

/** `docker inspect` of one object, parsed. */
export async function inspect<T = Record<string, unknown>>(kind: 'image' | 'container', name: string): Promise<T> {
  const [first] = JSON.parse(await dockerOk([kind, 'inspect', name])) as T[];
  return first!;
}

let serial = 0;

/** Names of the containers and volumes a test file made, removed by removeAll(). */
export class DockerObjects {
  private readonly containers: string[] = [];
  private readonly volumes: string[] = [];

  /** A name no other run on this engine uses. */
  name(what: string): string {
    return `console-image-test-${process.pid}-${++serial}-${what}`;
  }

  /** `docker run -d --network host --name <name> ...args`; the container's name. */
  async run(what: string, args: string[]): Promise<string> {
    const name = this.name(what);
    this.containers.push(name);
    await dockerOk(['run', '-d', '--network', 'host', '--name', name, ...args]);
    return name;
  }

  volume(what: string): string {
    const name = this.name(what);
    this.volumes.push(name);
    return name;
  }

  async removeAll(): Promise<void> {
    if (this.containers.length > 0) await docker(['rm', '-f', '-v', ...this.containers.splice(0)]);
    if (this.volumes.length > 0) await docker(['volume', 'rm', '-f', ...this.volumes.splice(0)]);
  }
}

/** Polls `read` until `done` holds for its value; the last value in the error otherwise. */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
