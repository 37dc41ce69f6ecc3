import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_PATHS } from '../../server/contract/index.js';
import { squarePng } from '../../sandbox/lib/png.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { uploadPermissions } from '../../server/uploads/screens.js';
import { logIn, type Account } from '../support/login.js';
import { buildTestGateway } from './support/gateway.js';

/**
 * Who may put files on the file server, and how much (issue 36, point 8): an upload needs the
 * permission of a screen that takes its kind, each account has a daily quota of files and bytes,
 * and every upload is written to the audit trail. Through buildApp, listening, to the sandbox.
 */

const png = (fill = 1) =>
  squarePng(
    16,
    Buffer.concat(Array.from({ length: 16 }, () => Buffer.from([0, ...Array(16).fill(fill)]))),
    Buffer.from([0, 0, 0, 64, 158, 255]),
  );
const apk = (size: number) => Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(size - 4, 7)]);

interface Gateway {
  app: FastifyInstance;
  url: string;
  cookies: Partial<Record<Account, string>>;
}

async function startGateway(sandbox: StartedSandbox, env: Record<string, string>, who: Account[]): Promise<Gateway> {
  const app = await buildTestGateway({
    CHAT_BACKEND_URL: sandbox.url,
    RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
    ...env,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const cookies: Gateway['cookies'] = {};
  for (const account of who) cookies[account] = await logIn(url, account);
  return { app, url, cookies };
}

async function upload(gateway: Gateway, who: Account, query: string, body: Buffer | Readable) {
  const res = await request(`${gateway.url}${GATEWAY_PATHS.upload}?${query}`, {
    method: 'POST',
    headers: { cookie: gateway.cookies[who]!, origin: gateway.url, 'content-type': 'application/octet-stream' },
    body,
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

describe('uploads: who, how much, and the trail', { timeout: 60_000 }, () => {
  let sandbox: StartedSandbox;
  const gateways: Gateway[] = [];
  const uploadCalls = () => sandbox.app.sandboxCalls.filter((c) => c.path === '/manage/upload').length;

  beforeAll(async () => {
    sandbox = await startSandbox({ withdrawalTickMs: 0, dataDir: mkdtempSync(path.join(tmpdir(), 'upload-guard-')) });
  });
  afterAll(async () => {
    for (const gateway of gateways) await gateway.app.close();
    await sandbox?.close();
  });
  const start = async (env: Record<string, string>, who: Account[]) => {
    const gateway = await startGateway(sandbox, env, who);
    gateways.push(gateway);
    return gateway;
  };

  it('derives from the contract which screens take each kind', () => {
    const allowed = uploadPermissions();
    expect([...allowed.package]).toEqual(['/manage/version']);
    expect(allowed.image.has('/manage/station/system')).toBe(true);
    expect(allowed.image.has('/manage/user/userProfile')).toBe(false);
  });

  it('refuses an upload to an account with no screen that takes its kind, before the backend hears of it', async () => {
    const gateway = await start({}, ['admin', 'operator']);
    const before = uploadCalls();
    for (const [query, body] of [
      ['kind=package&name=update.apk', apk(4096)],
      ['kind=image&name=logo.png', png()],
    ] as const) {
      const refused = await upload(gateway, 'operator', query, body);
      expect(refused.status, query).toBe(403);
      expect(refused.body).toMatchObject({ code: 403, error: 'FORBIDDEN' });
    }
    expect(uploadCalls()).toBe(before);
    const admin = await upload(gateway, 'admin', 'kind=package&name=update.apk', apk(4096));
    expect(admin.status).toBe(200);
    expect(uploadCalls()).toBe(before + 1);
  });

  it('writes every upload to the audit trail: stored with where and what, refused with its outcome', async () => {
    const gateway = await start({}, ['admin', 'operator']);
    const bytes = png(2);
    const stored = await upload(gateway, 'admin', 'kind=image&name=../../logo.png', bytes);
    expect(stored.status).toBe(200);
    const path = (stored.body.data as { path: string; md5: string }).path;
    expect((await upload(gateway, 'operator', 'kind=package&name=update.apk', apk(2048))).status).toBe(403);
    expect((await upload(gateway, 'admin', 'kind=image&name=fake.png', apk(2048))).status).toBe(415);

    const { list } = await gateway.app.audit.query({ action: 'upload', pageNum: 1, pageSize: 50 });
    const entries = list.map((e) => ({ account: e.actor.account, kind: e.kind, outcome: e.outcome, detail: e.detail }));
    expect(entries).toEqual(
      expect.arrayContaining([
        {
          account: 'admin',
          kind: 'change',
          outcome: { status: 200, code: 200 },
          detail: expect.objectContaining({ kind: 'image', name: 'logo.png', size: bytes.length, type: 'png', path }),
        },
        {
          account: 'operator',
          kind: 'change',
          outcome: { status: 403, code: 403, msg: 'FORBIDDEN' },
          detail: { kind: 'package', name: 'update.apk' },
        },
        {
          account: 'admin',
          kind: 'change',
          outcome: { status: 415, code: 415, msg: 'UPLOAD_TYPE_REFUSED' },
          detail: { kind: 'image', name: 'fake.png' },
        },
      ]),
    );
    expect(list.find((e) => e.outcome?.status === 200)).toMatchObject({ method: 'POST', path: GATEWAY_PATHS.upload });
  });

  it('answers 429 past the daily count of files, and a refused file does not count', async () => {
    const gateway = await start({ UPLOAD_DAILY_MAX_FILES: '2' }, ['admin']);
    expect((await upload(gateway, 'admin', 'kind=image&name=wrong.png', apk(1024))).status).toBe(415);
    expect((await upload(gateway, 'admin', 'kind=image&name=a.png', png(3))).status).toBe(200);
    expect((await upload(gateway, 'admin', 'kind=image&name=b.png', png(4))).status).toBe(200);
    const before = uploadCalls();
    const third = await upload(gateway, 'admin', 'kind=image&name=c.png', png(5));
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({
      code: 429,
      error: 'UPLOAD_QUOTA_EXCEEDED',
      data: { maxFiles: 2, maxBytes: 1024 * 1024 * 1024 },
    });
    expect(uploadCalls()).toBe(before);
    // Refusals past the quota are not written to the trail one by one.
    const { list } = await gateway.app.audit.query({ action: 'upload', pageNum: 1, pageSize: 50 });
    expect(list.filter((e) => e.outcome?.status === 429)).toEqual([]);
  });

  it('answers 429 past the daily bytes, whether the file says its length up front or only as it streams', async () => {
    const image = png(6);
    const gateway = await start({ UPLOAD_DAILY_MAX_BYTES: String(2 * image.length + 1024) }, ['admin']);
    expect((await upload(gateway, 'admin', 'kind=image&name=a.png', image)).status).toBe(200);
    // Of unknown length: charged what it measured once stored.
    expect((await upload(gateway, 'admin', 'kind=image&name=b.png', Readable.from([png(7)]))).status).toBe(200);
    const before = uploadCalls();
    const declared = await upload(gateway, 'admin', 'kind=package&name=c.apk', apk(2048));
    expect(declared.status).toBe(429);
    expect(declared.body).toMatchObject({ error: 'UPLOAD_QUOTA_EXCEEDED' });
    expect(uploadCalls()).toBe(before);
    const streamed = await upload(gateway, 'admin', 'kind=package&name=d.apk', Readable.from([apk(4096)]));
    expect(streamed.status).toBe(429);
    expect(streamed.body).toMatchObject({ error: 'UPLOAD_QUOTA_EXCEEDED' });
    // What is left still takes a small file.
    expect((await upload(gateway, 'admin', 'kind=package&name=e.apk', apk(512))).status).toBe(200);
  });
});
