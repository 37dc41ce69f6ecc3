import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { CALLS, GATEWAY_PATHS } from '../../server/contract/index.js';
import * as answers from '../../server/lib/answer-schema.js';
import { TEST_KEY_TEXT, writeFakeUi } from './support/gateway.js';
import { startFakeBackend, type FakeBackend } from '../support/fake-backend.js';

/**
 * Shapes once (issue 38, point 4): every route the gateway answers itself declares a schema, and
 * each part of it (body, query, params, each answer) is a schema the contract exports, or the
 * envelope of lib/answer-schema.ts around one. A route that restates a shape in a literal, or
 * builds one of its own, fails here. The gateway is built as main.ts builds it and its routes are
 * read as they are registered (buildApp's onRoute).
 */

const contractDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../server/contract');

/** Every object the contract's modules export, by identity. */
async function contractExports(): Promise<Set<unknown>> {
  const found = new Set<unknown>();
  const files = readdirSync(contractDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  for (const file of files) {
    const module = (await import(path.join(contractDir, file))) as Record<string, unknown>;
    for (const value of Object.values(module)) if (typeof value === 'object' && value !== null) found.add(value);
  }
  return found;
}

/**
 * Own routes that still restate their shapes, to convert: the list can only shrink, since the
 * test also fails when a route listed here has become right (the list is then out of date).
 */
const NOT_YET: readonly string[] = [
  `GET ${GATEWAY_PATHS.session}`,
  `HEAD ${GATEWAY_PATHS.session}`,
  `POST ${CALLS.login}`,
  `GET ${GATEWAY_PATHS.healthz}`,
  `HEAD ${GATEWAY_PATHS.healthz}`,
  `GET ${GATEWAY_PATHS.backendOffer}`,
  `HEAD ${GATEWAY_PATHS.backendOffer}`,
];

/** The gateway's own paths, and the two contract calls it answers itself (the login, and the permissions under a map). */
const ownPrefixes: string[] = [...Object.values(GATEWAY_PATHS), CALLS.login, CALLS.permission];
const isOwn = (url: string) => ownPrefixes.some((p) => url === p || url.startsWith(`${p}/`));

describe('the schemas of the gateway’s own routes', () => {
  const routes: RouteOptions[] = [];
  let app: FastifyInstance;
  let backend: FakeBackend;
  let contract: Set<unknown>;

  beforeAll(async () => {
    contract = await contractExports();
    backend = await startFakeBackend();
    const config = loadConfig({
      CHAT_BACKEND_URL: backend.url,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gw-data-')),
      RESPONSE_AES_KEY: TEST_KEY_TEXT,
      UI_DIR: writeFakeUi(),
    });
    app = await buildApp({ config, logger: false, onRoute: (route) => routes.push(route) });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await backend?.close();
  });

  const wrappers = new Set<unknown>(Object.values(answers).filter((v) => typeof v === 'object'));

  /** A contract schema, a fixed envelope, the envelope around a contract schema, or a choice of those. */
  function fromContract(part: unknown): boolean {
    if (contract.has(part) || wrappers.has(part)) return true;
    const schema = part as { properties?: Record<string, unknown>; anyOf?: unknown[] };
    if (schema.anyOf) return schema.anyOf.every(fromContract);
    const keys = Object.keys(schema.properties ?? {}).sort();
    return keys.join() === 'code,data,msg' && contract.has(schema.properties!.data);
  }

  function restated(route: RouteOptions): string[] {
    const schema = route.schema;
    if (!schema) return ['no schema'];
    const parts: [string, unknown][] = [
      ['body', schema.body],
      ['querystring', schema.querystring],
      ['params', schema.params],
      ['headers', schema.headers],
      ...Object.entries((schema.response ?? {}) as Record<string, unknown>).map(([code, part]): [string, unknown] => [
        `response ${code}`,
        part,
      ]),
    ];
    return parts.filter(([, part]) => part !== undefined && !fromContract(part)).map(([name]) => name);
  }

  it('finds the own routes', () => {
    const own = routes.filter((r) => isOwn(r.url));
    // The audit, approvals, error log, saved views, uploads and session calls at least.
    for (const p of [GATEWAY_PATHS.audit, GATEWAY_PATHS.approvals, GATEWAY_PATHS.errorLog, GATEWAY_PATHS.savedViews])
      expect(own.some((r) => r.url.startsWith(p))).toBe(true);
  });

  it('gives every own route a schema made of the contract’s', () => {
    const wrong: Record<string, string[]> = {};
    for (const route of routes.filter((r) => isOwn(r.url))) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const problems = restated(route);
      for (const method of methods) if (problems.length > 0) wrong[`${method} ${route.url}`] = problems;
    }
    expect(Object.keys(wrong).sort()).toEqual([...NOT_YET].sort());
  });

  it('catches a restated shape', () => {
    const literal = { method: 'GET', url: '/x', schema: { querystring: { type: 'object', properties: {} } } };
    expect(restated(literal as unknown as RouteOptions)).toEqual(['querystring']);
    expect(restated({ method: 'GET', url: '/x' } as unknown as RouteOptions)).toEqual(['no schema']);
  });
});
