/**
 * `npm run ejabberd`: a private, seeded ejabberd (Debian's package) and the built console bound
 * to it with the ejabberd map, for a newcomer's first look and the map's development. Both stop on
 * Ctrl-C. Options: --port <console port> (PORT, default 8080), --ejabberd-port <HTTP listener
 * port> (default: a free one), --users <n> (default 200), --password <admin password> (default
 * admin123), --no-build (use dist/ as it is), --ejabberd-only (no gateway: for running your own).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ejabberdMissing, startEjabberd, type Ejabberd } from './ejabberd.js';
import { seedEjabberd } from './ejabberd-seed.js';
import { REPO_ROOT } from './paths.js';

const MAP = 'server/backend-map/bindings/ejabberd.json';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '8080' },
    'ejabberd-port': { type: 'string' },
    users: { type: 'string', default: '200' },
    password: { type: 'string', default: 'admin123' },
    'no-build': { type: 'boolean', default: false },
    'ejabberd-only': { type: 'boolean', default: false },
  },
});

const say = (line: string): void => void process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const missing = ejabberdMissing();
  if (missing.length > 0) {
    say(`${missing.join(', ')}: npm run ejabberd runs Debian's ejabberd package (sudo apt-get install -y ejabberd).`);
    process.exitCode = 1;
    return;
  }
  const host = process.env.EJABBERD_HOST ?? 'localhost';
  say('starting a private ejabberd...');
  const server = await startEjabberd({
    host,
    mucHost: process.env.EJABBERD_MUC_HOST ?? `conference.${host}`,
    adminPassword: values.password,
    httpPort: values['ejabberd-port'] ? Number(values['ejabberd-port']) : undefined,
    startTimeoutMs: 120_000,
  });
  let gateway: ChildProcess | null = null;
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (gateway && gateway.exitCode === null) {
      const exited = new Promise((resolve) => gateway!.once('exit', resolve));
      gateway.kill('SIGTERM');
      await exited;
    }
    say('stopping ejabberd...');
    await server.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  try {
    const started = Date.now();
    const seeded = await seedEjabberd(server, { users: Number(values.users), rooms: 5, offlineUsers: 5 });
    say(describe(server, seeded.users.length, seeded.rooms.length, Date.now() - started));
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    await stopAll(1);
    return;
  }

  if (values['ejabberd-only']) return say('ejabberd only: Ctrl-C stops it.');
  if (!existsSync(path.join(REPO_ROOT, MAP))) {
    say(`${MAP} is not there: ejabberd keeps running alone (Ctrl-C stops it).`);
    return;
  }
  if (!values['no-build']) {
    const build = spawnSync(process.execPath, ['build.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
    if (build.status !== 0) return void stopAll(build.status ?? 1);
  }
  const env = {
    ...process.env,
    PORT: values.port,
    // Loopback unless said otherwise: the admin's password is printed above.
    HOST: process.env.HOST ?? '127.0.0.1',
    BACKEND_MAP: MAP,
    CHAT_BACKEND_URL: server.url,
    EJABBERD_HOST: server.host,
    EJABBERD_MUC_HOST: server.mucHost,
  };
  // Its own process group: Ctrl-C reaches only us and we pass one SIGTERM on (two signals make
  // the gateway skip its graceful shutdown).
  gateway = spawn(process.execPath, ['dist/server/main.js'], { cwd: REPO_ROOT, env, stdio: 'inherit', detached: true });
  process.once('exit', () => {
    if (gateway?.exitCode === null) gateway.kill('SIGKILL');
  });
  say(`the console: http://localhost:${values.port} (log in as ${server.admin.account} / ${server.admin.password})`);
  gateway.once('exit', (code) => void stopAll(code ?? 1));
}

function describe(server: Ejabberd, users: number, rooms: number, seededMs: number): string {
  return [
    `ejabberd ${server.url} (XMPP host ${server.host}, MUC ${server.mucHost}, c2s 127.0.0.1:${server.c2sPort})`,
    `  started in ${server.startedInMs} ms, seeded ${users} users and ${rooms} rooms in ${seededMs} ms`,
    `  admin: ${server.admin.account}@${server.host} / ${server.admin.password}; a non-admin: ${server.user.account} / ${server.user.password}`,
    `  seeded accounts user0001... log in with pw-user0001...; data, config and log: ${server.dir}`,
    `  try: curl -u ${server.admin.account}@${server.host}:${server.admin.password} -X POST ${server.url}/api/registered_users -d '{"host":"${server.host}"}'`,
  ].join('\n');
}

void main();
