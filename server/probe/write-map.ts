import { BackendMap } from '../backend-map/engine.js';
import { parseBackendMap } from '../backend-map/load.js';
import { BACKEND_MAP_SCHEMA_ID } from '../backend-map/schema.js';
import type { BackendMapFile } from '../backend-map/types.js';
import type { Upstream } from '../lib/upstream.js';
import { OPENAPI_PATHS, readApiDocument, type ApiDocument } from './openapi.js';
import { logIn, probe, type ProbeReport } from './probe.js';
import { proposeAuth, proposeResources, unsupportedConsole, type Question } from './propose.js';

/**
 * `--write-map` for a backend that serves an OpenAPI document: find the document, propose the
 * login from it, log in, propose every screen from the document and the answers, then probe the
 * proposal through the gateway's own translation and write what still differs as questions. A
 * `--map` given beside it is kept whole: its entries win, the proposal fills what it leaves out.
 */

export interface WriteMapOptions {
  account: string;
  password: string;
  code?: string;
  /** --map: kept whole in the written map. */
  base: BackendMapFile | null;
  /** --openapi: a URL, or a path under the backend; absent: the usual paths are tried. */
  openapi?: string;
  /** The backend reached with a map's login and token travel (none: the contract's). */
  connect: (map: BackendMapFile | null) => Upstream;
  withdrawalCountPath?: string;
}

async function readJson(upstream: Upstream, path: string): Promise<unknown> {
  const answer = await upstream.request(path, { method: 'GET' });
  if (answer.status >= 400) return null;
  try {
    return JSON.parse((await upstream.options.decoder(answer, path)).toString('utf8'));
  } catch {
    return null;
  }
}

/** The backend's OpenAPI document: at --openapi (a URL or a path under the backend), else at the usual paths. */
export async function findDocument(
  upstream: Upstream,
  openapi?: string,
): Promise<{ doc: ApiDocument; from: string } | null> {
  if (openapi !== undefined) {
    const json = /^https?:\/\//i.test(openapi)
      ? await fetch(openapi).then((r) => (r.ok ? (r.json() as Promise<unknown>) : null))
      : await readJson(upstream, openapi);
    const doc = readApiDocument(json);
    if (!doc) throw new Error(`${openapi} is not an OpenAPI (3) or Swagger (2) document`);
    return { doc, from: openapi };
  }
  for (const path of OPENAPI_PATHS) {
    const doc = readApiDocument(await readJson(upstream, path));
    if (doc) return { doc, from: path };
  }
  return null;
}

/** The map's own members first, then the proposal's: a bound entry is never replaced. */
function keepBase(base: BackendMapFile | null, proposal: BackendMapFile): BackendMapFile {
  if (!base) return proposal;
  const resources = { ...proposal.resources, ...base.resources };
  const calls = { ...proposal.console?.calls, ...base.console?.calls };
  return {
    ...proposal,
    ...base,
    resources,
    console: { ...proposal.console, ...base.console, calls },
  };
}

/** Null when the backend serves no OpenAPI document (the probe then writes what the contract's paths showed). */
export async function writeStartingMapFromDocument(
  options: WriteMapOptions,
): Promise<{ map: BackendMapFile; report: ProbeReport; from: string } | null> {
  const bare = options.connect(options.base);
  const found = await findDocument(bare, options.openapi);
  if (!found) return null;
  const questions: Question[] = [...(options.base?.questions ?? [])];
  const form = { account: options.account, password: options.password, code: options.code ?? '' };
  const proposed = options.base?.auth ? null : await proposeAuth(found.doc, bare, form, questions);
  const envelope = options.base?.answer ?? proposed?.envelope ?? undefined;
  const head: BackendMapFile = {
    $schema: BACKEND_MAP_SCHEMA_ID,
    description: `Written by npm run probe --write-map from ${found.from} and the backend's answers: a start. Answer the questions, then delete them (docs/binding.md).`,
    ...(envelope ? { answer: envelope } : {}),
    ...(options.base?.auth ? { auth: options.base.auth } : proposed ? { auth: proposed.auth } : {}),
  };
  if (!options.base?.permissions) {
    head.permissions = 'all';
    questions.push({
      at: '/permissions',
      ask: '"all" lets every administrator the backend logs in open every screen: bind its roles if it has any',
    });
  }
  const upstream = options.connect({ ...options.base, ...head });
  const session = await logIn(upstream, form);
  const part = await proposeResources({ doc: found.doc, upstream, session, envelope, questions });
  const map = keepBase(options.base, { ...head, ...part, console: unsupportedConsole() });
  // The proposal is a map the gateway loads: a mistake here is the probe's, found before writing.
  parseBackendMap(JSON.stringify(map), 'the proposed map');
  const report = await probe(upstream, {
    account: options.account,
    password: options.password,
    ...(options.code === undefined ? {} : { code: options.code }),
    map: new BackendMap(map),
    ...(options.withdrawalCountPath ? { withdrawalCountPath: options.withdrawalCountPath } : {}),
  });
  for (const screen of report.screens) {
    if (screen.verdict === 'OK' || screen.verdict === 'UNSUPPORTED' || !map.resources?.[screen.id]) continue;
    questions.push({
      at: `/resources/${screen.id}`,
      ask: `the probe through this map: ${screen.verdict} ${screen.detail}`,
    });
  }
  if (questions.length) map.questions = questions;
  return { map, report, from: found.from };
}
