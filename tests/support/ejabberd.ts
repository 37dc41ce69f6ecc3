import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports.js';

/**
 * A real ejabberd (Debian's package) for tests and `npm run ejabberd`: a private Erlang VM on
 * free loopback ports, its config, database and log in a fresh folder, started without
 * ejabberdctl (which switches user, takes a fixed node name and starts a global epmd). Free of
 * vitest, so the dev script uses it too. What its API answers is in docs/dialects/ejabberd.md.
 */

/** Where Debian puts ejabberd's Erlang libraries (`ejabberd-<version>` under the multiarch lib dir). */
export function ejabberdLibDir(): string | null {
  const fromEnv = process.env.EJABBERD_LIB_DIR;
  if (fromEnv) return existsSync(path.join(fromEnv, 'ebin', 'ejabberd.app')) ? fromEnv : null;
  const found: string[] = [];
  for (const lib of ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib']) {
    if (!existsSync(lib)) continue;
    for (const name of readdirSync(lib)) {
      if (/^ejabberd-\d/.test(name) && existsSync(path.join(lib, name, 'ebin', 'ejabberd.app'))) {
        found.push(path.join(lib, name));
      }
    }
  }
  // The newest when several are left behind by upgrades.
  return found.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).at(-1) ?? null;
}

/** What is missing to start one (empty when nothing is): for skipWithout and the dev script's message. */
export function ejabberdMissing(): string[] {
  const hasErl = spawnSync('sh', ['-c', 'command -v erl'], { stdio: 'ignore' }).status === 0;
  return hasErl && ejabberdLibDir() ? [] : ['ejabberd (apt-get install -y ejabberd)'];
}

export function ejabberdInstalled(): boolean {
  return ejabberdMissing().length === 0;
}

export interface EjabberdAccount {
  /** The bare account name on the server's host (`admin`). */
  account: string;
  password: string;
}

export interface EjabberdAnswer {
  status: number;
  /** The parsed JSON body (ejabberd answers JSON for every status), or the raw text when it is not JSON. */
  json: unknown;
}

export interface EjabberdOptions {
  /** The XMPP host (vhost), as EJABBERD_HOST. Default `localhost`. */
  host?: string;
  /** The MUC service, as EJABBERD_MUC_HOST. Default `conference.<host>`. */
  mucHost?: string;
  /** The admin's password; random by default, so a stray instance on a reused port never answers as ours. */
  adminPassword?: string;
  /** A second account outside the admin ACL (a non-admin must get 403). Default `user`, random password. */
  user?: Partial<EjabberdAccount>;
  /** The folder for config, database and log; a fresh temp folder (removed at stop) by default. */
  dir?: string;
  /** Fixed ports (the dev script's --port); free ones by default. */
  httpPort?: number;
  c2sPort?: number;
  /** How long start may take before it gives up: generous, a loaded CI machine takes 10 s and more. */
  startTimeoutMs?: number;
}

export interface Ejabberd {
  /** The HTTP listener's base, e.g. `http://127.0.0.1:41234`: CHAT_BACKEND_URL; the API is `<url>/api/<command>`. */
  url: string;
  host: string;
  mucHost: string;
  /** The XMPP client port on 127.0.0.1 (tests/support/xmpp-client.ts connects there). */
  c2sPort: number;
  admin: EjabberdAccount;
  /** An account that is not admin. */
  user: EjabberdAccount;
  dir: string;
  pid: number;
  /** How long it took to answer its API, in ms. */
  startedInMs: number;
  /** POST /api/<command> with a JSON body, Basic as the admin unless `auth` says otherwise. */
  api(command: string, body?: Record<string, unknown>, auth?: EjabberdAccount | null): Promise<EjabberdAnswer>;
  /** The server's log so far (warnings and errors): for failure messages. */
  log(): string;
  /** SIGTERM to the VM's process group, SIGKILL after a grace; removes the folder when it made it. */
  stop(): Promise<void>;
}

const running = new Set<() => void>();
let exitHookInstalled = false;

/** The last resort when the test process exits without stop(): no VM outlives its runner. */
function killOnExit(kill: () => void): () => void {
  running.add(kill);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const each of running) each();
    });
  }
  return () => running.delete(kill);
}

function configYaml(options: { host: string; mucHost: string; httpPort: number; c2sPort: number; admin: string }) {
  // JSON is YAML: every value quoted the one safe way.
  const q = (text: string) => JSON.stringify(text);
  return `hosts:
  - ${q(options.host)}
loglevel: warning
# Plain storage keeps each Basic check cheap; test data only.
auth_password_format: plain
listen:
  - port: ${options.c2sPort}
    ip: "127.0.0.1"
    module: ejabberd_c2s
  - port: ${options.httpPort}
    ip: "127.0.0.1"
    module: ejabberd_http
    # The default backlog (5) refuses connections under a page of parallel per-row calls.
    backlog: 128
    request_handlers:
      /api: mod_http_api
acl:
  admin:
    user:
      - ${q(`${options.admin}@${options.host}`)}
access_rules:
  configure:
    allow: admin
api_permissions:
  "admin access":
    who:
      access:
        allow:
          - acl: admin
    what:
      - "*"
      - "!stop"
      - "!start"
modules:
  mod_admin_extra: {}
  mod_adhoc: {}
  mod_announce:
    access: configure
  mod_last: {}
  mod_muc:
    host: ${q(options.mucHost)}
  mod_muc_admin: {}
  mod_offline: {}
  mod_private: {}
  mod_roster: {}
  mod_shared_roster: {}
  mod_stats: {}
  mod_vcard: {}
`;
}

const password = () => randomBytes(9).toString('base64url');

/** Starts one and resolves once its API answers as the admin; rejects (and cleans up) when it cannot. */
export async function startEjabberd(options: EjabberdOptions = {}): Promise<Ejabberd> {
  const lib = ejabberdLibDir();
  if (!lib || !ejabberdInstalled()) throw new Error(`${ejabberdMissing().join(', ')} is missing`);
  const host = options.host ?? 'localhost';
  const mucHost = options.mucHost ?? `conference.${host}`;
  const admin: EjabberdAccount = { account: 'admin', password: options.adminPassword ?? password() };
  const user: EjabberdAccount = {
    account: options.user?.account ?? 'user',
    password: options.user?.password ?? password(),
  };
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'ejabberd-test-'));
  mkdirSync(dir, { recursive: true });
  const httpPort = options.httpPort ?? (await freePort());
  const c2sPort = options.c2sPort ?? (await freePort());
  const configPath = path.join(dir, 'ejabberd.yml');
  const logPath = path.join(dir, 'ejabberd.log');
  writeFileSync(configPath, configYaml({ host, mucHost, httpPort, c2sPort, admin: admin.account }));

  const erlBinary = (text: string) => `<<${JSON.stringify(text)}/utf8>>`;
  const register = (account: EjabberdAccount) =>
    `ejabberd_auth:try_register(${erlBinary(account.account)}, ${erlBinary(host)}, ${erlBinary(account.password)})`;
  // Stdin is a pipe from us: when it closes (this process died without stop()), the VM stops too.
  const watchParent =
    'spawn(fun() -> P = open_port({fd, 0, 1}, [eof, binary]), (fun L() -> receive {P, eof} -> init:stop(); _ -> L() end end)() end)';
  const started = Date.now();
  const child: ChildProcess = spawn(
    'erl',
    [
      '-noinput',
      // No epmd, no distribution: a private VM that no other node can reach.
      '-start_epmd',
      'false',
      // Busy-waiting schedulers would spin a small machine's cores while the server idles.
      '+sbwt',
      'none',
      '+sbwtdcpu',
      'none',
      '+sbwtdio',
      'none',
      '+S',
      '1:1',
      '-mnesia',
      'dir',
      JSON.stringify(path.join(dir, 'db')),
      '-s',
      'ejabberd',
      '-eval',
      `${register(admin)}, ${register(user)}, ${watchParent}.`,
    ],
    {
      cwd: dir,
      // Its own process group, so stop() reaches the helpers the VM starts (erl_child_setup, inet_gethost).
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: dir,
        ERL_LIBS: lib,
        EJABBERD_CONFIG_PATH: configPath,
        EJABBERD_LOG_PATH: logPath,
        LANG: 'C.UTF-8',
      },
    },
  );
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-20_000)));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-20_000)));
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const pid = child.pid!;
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  };
  const forget = killOnExit(() => killGroup('SIGKILL'));
  const readLog = () => {
    try {
      return readFileSync(logPath, 'utf8').slice(-4000);
    } catch {
      return '';
    }
  };
  const log = () => `--- ejabberd output ---\n${output.slice(-4000)}\n--- ${logPath} ---\n${readLog()}`;

  const url = `http://127.0.0.1:${httpPort}`;
  const api: Ejabberd['api'] = async (command, body = {}, auth = admin) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (auth) {
      const credentials = `${auth.account.includes('@') ? auth.account : `${auth.account}@${host}`}:${auth.password}`;
      headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    }
    const res = await fetch(`${url}/api/${command}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await res.text();
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch {
      // kept as text
    }
    return { status: res.status, json };
  };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (!exited) {
      killGroup('SIGTERM');
      // ejabberd stops in about 3 s; a wedged VM gets SIGKILL.
      const timer = setTimeout(() => killGroup('SIGKILL'), 15_000);
      await exit;
      clearTimeout(timer);
    }
    // Helpers of the VM that outlived it.
    killGroup('SIGKILL');
    forget();
    if (ownDir) rmSync(dir, { recursive: true, force: true });
  };

  try {
    const deadline = started + (options.startTimeoutMs ?? 60_000);
    for (;;) {
      if (exited) throw new Error(`ejabberd exited before it answered its API\n${log()}`);
      // Our admin's random password answering proves it is our instance on that port.
      const answer = await api('status').catch(() => null);
      if (answer?.status === 200) break;
      if (Date.now() > deadline) throw new Error(`ejabberd did not answer ${url}/api/status in time\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, host, mucHost, c2sPort, admin, user, dir, pid, startedInMs: Date.now() - started, api, log, stop };
}
