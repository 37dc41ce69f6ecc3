import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import type { CodecKey } from '../../server/codec/index.js';
import { loadConfig, parseKeyText } from '../../server/config.js';
import { CALLS, ENABLE_MODE_HEADER, WITHDRAWAL_REVIEW_PERMISSION } from '../../server/contract/index.js';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { logIn } from '../support/login.js';
import { SseClient } from '../support/sse-client.js';
import { writeFakeUi } from './support/gateway.js';

/**
 * What RESPONSE_AES_IV, RESPONSE_AES_MODE and WITHDRAWAL_COUNT_PATH do, read from the environment
 * (loadConfig) into a gateway (buildApp) in front of a sandbox backend set up the same way: the
 * matching setting reads the backend, the default does not. config.test.ts checks their parsing;
 * this checks that the gateway uses what was parsed.
 */

const IV_TEXT = 'base64:AAECAwQFBgcICQoLDA0ODw==';
const KEY = parseKeyText('key', SANDBOX_AES_KEY_TEXT, [32]);
const IV = parseKeyText('iv', IV_TEXT, [16]);
const COUNT_PATH = '/manage/finance/cashWithdrawalCheck/pending';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function sandbox(options: { codec?: CodecKey; withdrawalCountPath?: string }): Promise<StartedSandbox> {
  const started = await startSandbox({ port: 0, withdrawalTickMs: 0, ...options });
  closers.push(() => started.close());
  return started;
}

/** A gateway built from `env` as the process environment, listening on a loopback port. */
async function gateway(
  backend: StartedSandbox,
  env: Record<string, string>,
): Promise<{ app: FastifyInstance; url: string; port: number }> {
  const config = loadConfig({
    CHAT_BACKEND_URL: backend.url,
    RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'config-effects-')),
    UI_DIR: writeFakeUi(),
    ...env,
  });
  const app = await buildApp({ config, logger: false });
  closers.push(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, port };
}

/** The permission list (an answer the sandbox encrypts, mode 1) and the dashboard counts (mode 3) through the gateway. */
async function encodedAnswers(
  url: string,
): Promise<Array<{ status: number; body: Record<string, unknown>; mode: string | null }>> {
  const cookie = await logIn(url);
  const answers = [];
  for (const call of [CALLS.permission, CALLS.count]) {
    const res = await fetch(`${url}${call}`, { headers: { cookie } });
    answers.push({
      status: res.status,
      body: (await res.json()) as Record<string, unknown>,
      mode: res.headers.get(ENABLE_MODE_HEADER),
    });
  }
  return answers;
}

describe('RESPONSE_AES_IV', () => {
  it('decodes a backend that encrypts with that IV, which the default IV cannot', async () => {
    const backend = await sandbox({ codec: { key: KEY, iv: IV, mode: 'cbc' } });
    const matching = await gateway(backend, { RESPONSE_AES_IV: IV_TEXT });
    const [permission, count] = await encodedAnswers(matching.url);
    expect(permission).toMatchObject({ status: 200, mode: null, body: { code: 200 } });
    expect((permission!.body.data as Array<{ permission: string }>).map((p) => p.permission)).toContain(
      WITHDRAWAL_REVIEW_PERMISSION,
    );
    expect(count).toMatchObject({ status: 200, mode: null, body: { code: 200 } });

    const defaults = await gateway(backend, {});
    for (const answer of await encodedAnswers(defaults.url))
      expect(answer).toMatchObject({ status: 502, body: { error: 'DECODE_FAILED' } });
  });
});

describe('RESPONSE_AES_MODE', () => {
  it('ecb decodes a backend that encrypts in ECB, which the default cbc cannot', async () => {
    const backend = await sandbox({ codec: { key: KEY, iv: Buffer.alloc(16), mode: 'ecb' } });
    const matching = await gateway(backend, { RESPONSE_AES_MODE: 'ecb' });
    for (const answer of await encodedAnswers(matching.url))
      expect(answer).toMatchObject({ status: 200, mode: null, body: { code: 200 } });

    const defaults = await gateway(backend, {});
    for (const answer of await encodedAnswers(defaults.url))
      expect(answer).toMatchObject({ status: 502, body: { error: 'DECODE_FAILED' } });
  });

  it('ecb ignores RESPONSE_AES_IV, as ECB has none', async () => {
    const backend = await sandbox({ codec: { key: KEY, iv: Buffer.alloc(16), mode: 'ecb' } });
    const withIv = await gateway(backend, { RESPONSE_AES_MODE: 'ECB', RESPONSE_AES_IV: IV_TEXT });
    for (const answer of await encodedAnswers(withIv.url))
      expect(answer).toMatchObject({ status: 200, body: { code: 200 } });
  });
});

describe('WITHDRAWAL_COUNT_PATH', () => {
  it('polls the pending count where the backend serves it, and never the default path', async () => {
    const backend = await sandbox({ withdrawalCountPath: COUNT_PATH });
    backend.app.sandbox.addPendingWithdrawal();
    const { url, port } = await gateway(backend, { WITHDRAWAL_COUNT_PATH: COUNT_PATH });
    const stream = await SseClient.open(port, await logIn(url));
    try {
      await stream.waitFor(() => stream.counts().length > 0, 'the first count');
      expect(stream.counts()).toEqual([backend.app.sandbox.pendingWithdrawalCount()]);
      expect(backend.app.sandbox.pendingWithdrawalCount()).toBeGreaterThan(0);
    } finally {
      stream.close();
    }
    const paths = backend.app.sandboxCalls.map((call) => call.path);
    expect(paths).toContain(COUNT_PATH);
    expect(paths).not.toContain(CALLS.withdrawalCount);
  });
});
