import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ENABLE_MODE_HEADER } from '../contract/index.js';
import { decodeBody, parseEnableMode } from '../codec/index.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { BackendMap } from '../backend-map/engine.js';
import { Upstream, type RawAnswer } from '../lib/upstream.js';
import { backendAuthOf } from '../backend-map/auth.js';
import { serviceUrls } from '../backend-map/services.js';
import type { BackendMapFile } from '../backend-map/types.js';
import { LoginFailed, formatReport, probe, startingMap } from './probe.js';
import { writeStartingMapFromDocument } from './write-map.js';

/**
 * `npm run probe -- --backend URL --account A --password P [--map FILE] [--code C] [--write-map F] [--openapi URL]`:
 * which screens a backend answers as the console expects; with --write-map, a starting map (from
 * the backend's OpenAPI document when it serves one, write-map.ts). Decodes with the gateway's own
 * RESPONSE_AES_* variables. Exit 0 when it ran (whatever it found), 2 when the login failed,
 * 64 for bad arguments, 78 for a bad map or AES variable, 1 when the backend cannot be reached.
 */

const USAGE =
  'usage: npm run probe -- --backend URL --account A --password P [--map FILE] [--code C] [--write-map FILE] [--openapi URL]';

function fail(code: number, message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

let args;
try {
  args = parseArgs({
    options: {
      backend: { type: 'string' },
      account: { type: 'string' },
      password: { type: 'string' },
      code: { type: 'string' },
      map: { type: 'string' },
      'write-map': { type: 'string' },
      openapi: { type: 'string' },
    },
    strict: true,
  }).values;
} catch (error) {
  fail(64, `${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
}
if (!args.backend || !args.account || args.password === undefined) fail(64, USAGE);
if (args.openapi !== undefined && !args['write-map']) fail(64, `--openapi is read for --write-map only\n${USAGE}`);

/** The file itself, through links: a map is never written over the one it is read from. */
const sameFile = (a: string, b: string) => {
  const real = (f: string) => {
    try {
      return realpathSync(f);
    } catch {
      return path.resolve(f);
    }
  };
  return real(a) === real(b);
};
if (args.map && args['write-map'] && sameFile(args.map, args['write-map']))
  fail(64, `--write-map ${args['write-map']} is the map read (--map): write the new one elsewhere and compare`);

let config: Config;
try {
  // The gateway's own reading of the variables: the same AES key rules and map checks.
  config = loadConfig({ ...process.env, CHAT_BACKEND_URL: args.backend, BACKEND_MAP: args.map ?? '' });
} catch (error) {
  if (error instanceof ConfigError) fail(78, `Invalid configuration: ${error.message}`);
  throw error;
}

const { key: keyBytes, iv, mode } = config.aes;
const decoder = async (answer: RawAnswer, _path: string): Promise<Buffer> => {
  const encoded = parseEnableMode(answer.headers[ENABLE_MODE_HEADER]);
  if (encoded === null) return answer.body;
  return decodeBody(answer.body, encoded, keyBytes ? { key: keyBytes, iv, mode } : null, {
    maxBytes: config.decodeMaxBytes,
  });
};
const connect = (baseUrl: string, map: BackendMapFile | undefined = config.backendMap?.map) =>
  new Upstream({
    baseUrl,
    timeoutMs: Math.min(config.upstreamTimeoutMs, 30_000),
    tlsInsecure: config.upstreamTlsInsecure,
    maxAnswerBytes: config.decodeMaxBytes,
    decoder,
    connections: 4,
    // The map's login and token travel, as the gateway uses them.
    auth: backendAuthOf(map),
  });
const upstream = connect(config.chatBackendUrl!);
// The map's services at the addresses their variables give, else at --backend's.
const services = Object.fromEntries(
  Object.entries(serviceUrls(config.backendMap?.services ?? {}, config.chatBackendUrl!)).map(([name, url]) => [
    name,
    connect(url),
  ]),
);
const opened: Upstream[] = [];
const closeAll = () => Promise.all([upstream, ...Object.values(services), ...opened].map((u) => u.close()));
const write = (file: string, map: BackendMapFile) => {
  writeFileSync(file, `${JSON.stringify(map, null, 2)}\n`);
  const questions = map.questions?.length ?? 0;
  process.stdout.write(
    `a starting map is in ${file}${questions ? `, with ${questions} questions (npm run map:check ${file})` : ''}\n`,
  );
};

try {
  const written = args['write-map']
    ? await writeStartingMapFromDocument({
        account: args.account,
        password: args.password,
        ...(args.code === undefined ? {} : { code: args.code }),
        base: config.backendMap?.map ?? null,
        ...(args.openapi === undefined ? {} : { openapi: args.openapi }),
        connect: (map) => {
          const u = connect(config.chatBackendUrl!, map ?? undefined);
          opened.push(u);
          return u;
        },
        withdrawalCountPath: config.withdrawalCountPath,
      })
    : null;
  if (written) {
    process.stdout.write(`read ${written.from}\n`);
    for (const line of formatReport(written.report)) process.stdout.write(`${line}\n`);
    write(args['write-map']!, written.map);
    await closeAll();
    process.exit(0);
  }
  const report = await probe(upstream, {
    account: args.account,
    password: args.password,
    ...(args.code === undefined ? {} : { code: args.code }),
    map: config.backendMap ? new BackendMap(config.backendMap.map) : null,
    withdrawalCountPath: config.withdrawalCountPath,
    services,
  });
  for (const line of formatReport(report)) process.stdout.write(`${line}\n`);
  if (args['write-map']) write(args['write-map'], startingMap(report, config.backendMap?.map ?? null));
  await closeAll();
} catch (error) {
  await closeAll();
  if (error instanceof LoginFailed) fail(2, `Login failed: ${error.message}`);
  fail(1, `The probe could not run: ${error instanceof Error ? error.message : String(error)}`);
}
