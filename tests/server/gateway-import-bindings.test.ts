import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS, GATEWAY_PATHS, INVITE_CODES, SENSITIVE_WORDS, resourceCalls } from '../../server/contract/index.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { SAME_ORIGIN, buildTestGateway } from './support/gateway.js';

/**
 * A CSV import goes through the screen's own calls (the list's search, then its create), so the
 * product maps that bind those calls bind the import: the calls it makes, through the gateway,
 * against the sandbox's dialects of OpenIM Chat (invitation codes) and Shiku IM (sensitive words).
 */

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

async function session(app: FastifyInstance): Promise<Record<string, string>> {
  const res = await app.inject({
    method: 'POST',
    url: CALLS.login,
    headers: SAME_ORIGIN,
    payload: { account: 'admin', password: 'admin123' },
  });
  expect(res.json()).toMatchObject({ code: 200 });
  return Object.fromEntries(res.cookies.map((c) => [c.name, c.value]));
}

describe.each([
  {
    dialect: 'openim' as const,
    map: 'openim-chat.json',
    resource: INVITE_CODES,
    key: 'code',
    record: { code: 'IMPORT2026' },
  },
  {
    dialect: 'shiku' as const,
    map: 'shiku-im.json',
    resource: SENSITIVE_WORDS,
    key: 'word',
    record: { word: 'importedword' },
  },
])(
  'an import’s calls against the $dialect dialect through its shipped map',
  ({ dialect, map, resource, key, record }) => {
    let sandbox: StartedSandbox;
    let app: FastifyInstance;
    let cookies: Record<string, string>;
    const calls = resourceCalls(resource);

    beforeAll(async () => {
      sandbox = await startSandbox({ dialect, withdrawalTickMs: 0 });
      app = await buildTestGateway({
        CHAT_BACKEND_URL: sandbox.url,
        UPSTREAM_TIMEOUT_MS: '5000',
        BACKEND_MAP: path.join(REPO_ROOT, 'server/backend-map/bindings', map),
      });
      cookies = await session(app);
    });

    afterAll(async () => {
      await app?.close();
      await sandbox?.close();
    });

    const search = async (keyword: string) => {
      const res = await app.inject({
        method: 'GET',
        url: `${calls.list}?keyword=${encodeURIComponent(keyword)}&pageNum=1&pageSize=100`,
        cookies,
      });
      const body = res.json() as { code: number; data: { list: Record<string, unknown>[] } };
      expect(body.code, res.body).toBe(200);
      return body.data.list.filter((row) => String(row[key]).toLowerCase() === keyword.toLowerCase());
    };

    it('offers the create the import needs, finds nothing, creates the record, then finds it', async () => {
      const offer = await app.inject({ method: 'GET', url: GATEWAY_PATHS.backendOffer, cookies });
      const unsupported = (offer.json() as { unsupported: { resources: string[]; calls: Record<string, string[]> } })
        .unsupported;
      expect(unsupported.resources).not.toContain(resource.id);
      expect(unsupported.calls[resource.id] ?? []).not.toContain('create');

      const value = record[key as keyof typeof record]!;
      expect(await search(value)).toEqual([]);
      const created = await app.inject({
        method: 'POST',
        url: calls.save,
        headers: SAME_ORIGIN,
        cookies,
        payload: record,
      });
      expect(created.json(), created.body).toMatchObject({ code: 200 });
      expect(await search(value)).toHaveLength(1);
      const stored =
        dialect === 'openim'
          ? sandbox.app.sandbox.inviteCodes.all().map((c) => c.code)
          : sandbox.app.sandbox.sensitiveWords.all().map((w) => w.word);
      expect(stored.filter((v) => v === value)).toHaveLength(1);
    });
  },
);
