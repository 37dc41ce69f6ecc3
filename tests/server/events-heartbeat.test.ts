import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { CALLS, WITHDRAWAL_REVIEW_PERMISSION } from '../../server/contract/index.js';
import { answerLogins, cookieHeaderOf, logInThrough } from '../support/session.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { writeFakeUi } from './support/gateway.js';
import { SseClient } from '../support/sse-client.js';

/**
 * The event stream's comment heartbeats, read raw off a real socket of a listening gateway: they
 * keep proxies and browsers from timing an idle stream out, so they must flow while the count
 * does not change.
 */

const HEARTBEAT_MS = 150;
let backend: FakeBackend;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  backend = await startFakeBackend();
  answerLogins(backend, 'tok-heartbeat');
  backend.route(`GET ${CALLS.permission}`, (_call, res) =>
    sendJson(res, { code: 200, msg: 'ok', data: [{ permission: WITHDRAWAL_REVIEW_PERMISSION }] }),
  );
  backend.route(`GET ${CALLS.withdrawalCount}`, (_call, res) => sendJson(res, { code: 200, msg: 'ok', data: 6 }));
  const config = loadConfig({
    CHAT_BACKEND_URL: backend.url,
    WITHDRAWAL_POLL_MS: '100',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gw-heartbeat-')),
    UI_DIR: writeFakeUi(),
  });
  app = await buildApp({ config, logger: false, events: { heartbeatMs: HEARTBEAT_MS } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await app.close();
  await backend.close();
});

describe('/api/events heartbeats', () => {
  it('flow as comment lines between the unchanged counts, on every open stream', async () => {
    const cookie = cookieHeaderOf(await logInThrough(app));
    const tabs = [await SseClient.open(port, cookie), await SseClient.open(port, cookie)];
    for (const tab of tabs) {
      expect(tab.status).toBe(200);
      expect(tab.headers['content-type']).toMatch(/^text\/event-stream/);
      await tab.waitFor(() => tab.comments.filter((c) => c === 'hb').length >= 3, 'three heartbeats');
      // The count never changed, so it came once; the heartbeats alone kept the stream busy.
      expect(tab.counts()).toEqual([6]);
      expect(tab.body).toMatch(/^: open\n\n/);
      expect(tab.body).toContain('\n: hb\n\n');
      expect(tab.ended).toBe(false);
      tab.close();
    }
  });
});
