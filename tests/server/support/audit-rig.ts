import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { loadConfig, type Config } from '../../../server/config.js';
import { GATEWAY_PATHS } from '../../../server/contract/index.js';
import type { AuditEntry, AuditPage } from '../../../server/contract/audit.js';
import { SANDBOX_AES_KEY_TEXT } from '../../../sandbox/key.js';
import type { StartedSandbox } from '../../../sandbox/start.js';
import { tempDir } from '../../support/processes.js';
import { SAME_ORIGIN } from './gateway.js';
import { logInInject } from '../../support/login.js';

export const RIG_SECRET = 'audit-rig-session-secret-0123456789abcdef';

export interface AuditGateway {
  app: FastifyInstance;
  config: Config;
  dataDir: string;
}

/** A gateway in front of the sandbox, with its own DATA_DIR (and more environment, as REDIS_URL). */
export async function auditGateway(sandbox: StartedSandbox, env: Record<string, string> = {}): Promise<AuditGateway> {
  const dataDir = env.DATA_DIR ?? tempDir('audit-data-');
  const config = loadConfig({
    CHAT_BACKEND_URL: sandbox.url,
    RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
    SESSION_SECRET: RIG_SECRET,
    DATA_DIR: dataDir,
    UI_DIR: tempDir('audit-ui-'),
    ...env,
  });
  return { app: await buildApp({ config, logger: false }), config, dataDir };
}

export type Cookies = Record<string, string>;

/** Logs in through the gateway as the login form does; the cookies it set. */
export function logInAs(app: FastifyInstance, account: string, password: string, code = ''): Promise<Cookies> {
  return logInInject(app, { account, password, code });
}

/** A call as the browser makes it: same origin, the session's cookies, JSON. */
export function call(
  app: FastifyInstance,
  cookies: Cookies,
  method: InjectOptions['method'],
  url: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url,
    cookies,
    headers: SAME_ORIGIN,
    ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
  });
}

/** A page of GET /api/audit with these filters. */
export async function trail(app: FastifyInstance, cookies: Cookies, query = ''): Promise<AuditPage> {
  const response = await app.inject({ method: 'GET', url: `${GATEWAY_PATHS.audit}${query}`, cookies });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: AuditPage }).data;
}

/** The trail's newest entry. */
export async function newest(app: FastifyInstance, cookies: Cookies): Promise<AuditEntry> {
  const page = await trail(app, cookies, '?pageSize=1');
  expect(page.list.length).toBe(1);
  return page.list[0]!;
}

/** The whole file as written, every byte. */
export function fileText(dataDir: string): Promise<string> {
  return readFile(path.join(dataDir, 'audit.jsonl'), 'utf8');
}
