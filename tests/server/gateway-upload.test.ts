import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_PATHS, type UploadAnswer } from '../../server/contract/index.js';
import { PLATE_CONTENT_SECURITY_POLICY } from '../../server/lib/plate-headers.js';
import { squarePng } from '../../sandbox/lib/png.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { logIn } from '../support/login.js';
import { buildTestGateway } from './support/gateway.js';

/**
 * Uploads through the gateway (buildApp, listening) to the sandbox backend's file server: checked
 * by type and size as they stream, stored under the sandbox's data folder, served back at /plate/.
 */

const IMAGE_MAX = 64 * 1024;
const PACKAGE_MAX = 256 * 1024;

/** A 16 px square: each row a filter byte (0) and 16 palette indices. */
const png = () =>
  squarePng(
    16,
    Buffer.concat(Array.from({ length: 16 }, () => Buffer.from([0, ...Array(16).fill(1)]))),
    Buffer.from([0, 0, 0, 64, 158, 255]),
  );
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
/** A ZIP's local file header and some bytes: what an .apk starts with. */
const apk = (size: number) => Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(size - 4, 7)]);

interface Gateway {
  app: FastifyInstance;
  url: string;
  cookie: string;
}

async function startGateway(env: Record<string, string>, sandbox: StartedSandbox | null): Promise<Gateway> {
  const app = await buildTestGateway({
    UPLOAD_IMAGE_MAX_BYTES: String(IMAGE_MAX),
    UPLOAD_PACKAGE_MAX_BYTES: String(PACKAGE_MAX),
    RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
    UPSTREAM_TIMEOUT_MS: '5000',
    ...env,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { app, url, cookie: sandbox ? await logIn(url) : '' };
}

function upload(gateway: Gateway, query: string, body: Buffer | Readable, headers: Record<string, string> = {}) {
  return request(`${gateway.url}${GATEWAY_PATHS.upload}?${query}`, {
    method: 'POST',
    headers: { cookie: gateway.cookie, origin: gateway.url, 'content-type': 'application/octet-stream', ...headers },
    body,
  });
}

/** Every stored upload in the sandbox's data folder. */
function storedFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'uploads');
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true }) as string[]).filter(
    (f) => /\.[a-z]+$/.test(f) && !f.endsWith('.part'),
  );
}

describe('uploads through the gateway to the sandbox', () => {
  let dataDir: string;
  let sandbox: StartedSandbox;
  let gateway: Gateway;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'upload-sandbox-'));
    sandbox = await startSandbox({ withdrawalTickMs: 0, dataDir });
    gateway = await startGateway({ CHAT_BACKEND_URL: sandbox.url }, sandbox);
  });

  afterAll(async () => {
    await gateway?.app.close();
    await sandbox?.close();
  });

  const uploadCalls = () => sandbox.app.sandboxCalls.filter((c) => c.path === '/manage/upload').length;

  it('tells the UI its limits', async () => {
    const res = await request(`${gateway.url}${GATEWAY_PATHS.upload}`, { headers: { cookie: gateway.cookie } });
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toEqual({
      code: 200,
      msg: 'ok',
      data: { maxBytes: { image: IMAGE_MAX, package: PACKAGE_MAX } },
    });
  });

  it('stores an image under the sandbox data folder and serves it back at /plate/', async () => {
    const bytes = png();
    const res = await upload(gateway, 'kind=image&name=logo.png', bytes, { 'content-type': 'image/png' });
    expect(res.statusCode).toBe(200);
    const body = (await res.body.json()) as { code: number; data: UploadAnswer };
    expect(body.code).toBe(200);
    expect(body.data).toMatchObject({
      name: 'logo.png',
      size: bytes.length,
      md5: md5(bytes),
      contentType: 'image/png',
      url: null,
    });
    expect(body.data.path).toMatch(/^uploads\/images\/\d{4}\/\d{2}\/[0-9a-f]{32}\.png$/);
    expect(readFileSync(path.join(dataDir, body.data.path)).equals(bytes)).toBe(true);

    const served = await request(`${gateway.url}/plate/${body.data.path}`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-security-policy']).toBe(PLATE_CONTENT_SECURITY_POLICY);
    expect(Buffer.from(await served.body.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('streams a package of unknown length and measures its size and MD5 on the way', async () => {
    const bytes = apk(200 * 1024);
    // Chunked: no Content-Length, so the limit is enforced as the bytes pass.
    const res = await upload(
      gateway,
      'kind=package&name=chat-2.4.0.apk',
      Readable.from([bytes.subarray(0, 70_000), bytes.subarray(70_000)]),
    );
    expect(res.statusCode).toBe(200);
    const { data } = (await res.body.json()) as { data: UploadAnswer };
    expect(data).toMatchObject({
      size: bytes.length,
      md5: md5(bytes),
      contentType: 'application/vnd.android.package-archive',
    });
    expect(data.path).toMatch(/^uploads\/packages\/.+\.apk$/);
    const served = await request(`${gateway.url}/plate/${data.path}`);
    // Not an image: the file server's answer goes out as an attachment that never renders.
    expect(served.headers['content-type']).toBe('application/octet-stream');
    expect(served.headers['content-disposition']).toBe('attachment');
    expect(Buffer.from(await served.body.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses a file whose bytes are not what its name says, before the backend hears of it', async () => {
    const before = uploadCalls();
    const stored = storedFiles(dataDir).length;
    const cases: [string, Buffer, Record<string, unknown>][] = [
      [
        'kind=image&name=logo.png',
        Buffer.from('<html><script>alert(1)</script></html>'),
        { reason: 'contents', detected: null },
      ],
      ['kind=image&name=logo.jpg', png(), { reason: 'contents', detected: 'png' }],
      ['kind=image&name=logo.txt', png(), { reason: 'extension' }],
      ['kind=package&name=app.apk', png(), { reason: 'contents', detected: 'png' }],
      ['kind=image&name=empty.png', Buffer.alloc(0), { reason: 'empty' }],
    ];
    for (const [query, bytes, data] of cases) {
      const res = await upload(gateway, query, bytes);
      expect(res.statusCode, query).toBe(415);
      const body = (await res.body.json()) as {
        code: number;
        error: string;
        msg: string;
        data: Record<string, unknown>;
      };
      expect(body, query).toMatchObject({
        code: 415,
        error: 'UPLOAD_TYPE_REFUSED',
        data: { kind: query.includes('package') ? 'package' : 'image', ...data },
      });
      expect(body.msg).toMatch(/not of a type this console accepts/);
    }
    expect(uploadCalls()).toBe(before);
    expect(storedFiles(dataDir)).toHaveLength(stored);
  });

  it('checks a disk image by its trailer, once the whole file has passed', async () => {
    const body = Buffer.alloc(4096, 3);
    const koly = Buffer.concat([Buffer.from('koly', 'latin1'), Buffer.alloc(508)]);
    const good = await upload(gateway, 'kind=package&name=Chat.dmg', Buffer.concat([body, koly]));
    expect(good.statusCode).toBe(200);
    await good.body.dump();
    const stored = storedFiles(dataDir).length;
    const bad = await upload(gateway, 'kind=package&name=Chat.dmg', Buffer.concat([body, Buffer.alloc(512)]));
    expect(bad.statusCode).toBe(415);
    expect(await bad.body.json()).toMatchObject({ error: 'UPLOAD_TYPE_REFUSED', data: { reason: 'contents' } });
    // The backend saw the body break off: it kept nothing, not even its temporary file.
    await expect.poll(() => readdirSync(path.join(dataDir, 'uploads', 'incoming'))).toEqual([]);
    expect(storedFiles(dataDir)).toHaveLength(stored);
  });

  it('answers 413 to a file past the limit, whether it says so up front or only as it streams', async () => {
    const before = uploadCalls();
    const declared = await upload(gateway, 'kind=image&name=big.png', Buffer.concat([png(), Buffer.alloc(IMAGE_MAX)]));
    expect(declared.statusCode).toBe(413);
    expect(await declared.body.json()).toEqual({
      code: 413,
      error: 'UPLOAD_TOO_LARGE',
      msg: `The file is larger than this console accepts for its kind: an image may be at most ${IMAGE_MAX} bytes`,
      data: { kind: 'image', maxBytes: IMAGE_MAX },
    });
    expect(uploadCalls()).toBe(before);

    const stored = storedFiles(dataDir).length;
    const head = png();
    const streamed = await upload(
      gateway,
      'kind=image&name=big.png',
      Readable.from([head, Buffer.alloc(IMAGE_MAX / 2), Buffer.alloc(IMAGE_MAX / 2)]),
    );
    expect(streamed.statusCode).toBe(413);
    expect(await streamed.body.json()).toMatchObject({ error: 'UPLOAD_TOO_LARGE', data: { maxBytes: IMAGE_MAX } });
    await expect.poll(() => readdirSync(path.join(dataDir, 'uploads', 'incoming'))).toEqual([]);
    expect(storedFiles(dataDir)).toHaveLength(stored);
    // The gateway is unharmed: the next upload goes through.
    const next = await upload(gateway, 'kind=image&name=next.png', png());
    expect(next.statusCode).toBe(200);
    await next.body.dump();
  });

  it('takes uploads only from a logged-in session on its own origin', async () => {
    const anonymous = await request(`${gateway.url}${GATEWAY_PATHS.upload}?kind=image&name=a.png`, {
      method: 'POST',
      headers: { origin: gateway.url, 'content-type': 'image/png' },
      body: png(),
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await anonymous.body.json()).toMatchObject({ error: 'NOT_LOGGED_IN' });
    const crossSite = await upload(gateway, 'kind=image&name=a.png', png(), { origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
    await crossSite.body.dump();
    const badKind = await upload(gateway, 'kind=video&name=a.png', png());
    expect(badKind.statusCode).toBe(400);
    await badKind.body.dump();
  });
});

describe('uploads when the backend is down', () => {
  it('answers 502 and stays up', async () => {
    const sandbox = await startSandbox({ withdrawalTickMs: 0 });
    const gateway = await startGateway({ CHAT_BACKEND_URL: sandbox.url }, sandbox);
    try {
      await sandbox.close();
      const res = await upload(gateway, 'kind=image&name=logo.png', png());
      expect(res.statusCode).toBe(502);
      expect(await res.body.json()).toMatchObject({ code: 502, error: 'UPSTREAM_UNREACHABLE' });
      const health = await request(`${gateway.url}${GATEWAY_PATHS.healthz}`);
      expect(health.statusCode).toBe(200);
      await health.body.dump();
    } finally {
      await gateway.app.close();
    }
  });
});

describe('uploads bound by a backend map', () => {
  it('sends the legacy dialect its own upload call and reads its answer back', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'upload-legacy-'));
    const sandbox = await startSandbox({ withdrawalTickMs: 0, dialect: 'legacy', dataDir });
    const gateway = await startGateway(
      { CHAT_BACKEND_URL: sandbox.url, BACKEND_MAP: path.resolve('sandbox/legacy-map.json') },
      sandbox,
    );
    try {
      const bytes = png();
      const res = await upload(gateway, 'kind=image&name=avatar.png', bytes);
      expect(res.statusCode).toBe(200);
      const { data } = (await res.body.json()) as { data: UploadAnswer };
      // The dialect answers `/plate/uploads/...` as `fileUrl`: kept relative to the file server.
      expect(data.path).toMatch(/^uploads\/images\/.+\.png$/);
      expect(data.size).toBe(bytes.length);
      expect(sandbox.app.sandboxCalls.map((c) => c.path)).toContain('/manage/common/upload');
      expect(readFileSync(path.join(dataDir, data.path)).equals(bytes)).toBe(true);
    } finally {
      await gateway.app.close();
      await sandbox.close();
    }
  });

  it('refuses an upload the map marks unsupported without reaching the backend', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'upload-map-'));
    writeFileSync(
      path.join(dir, 'map.json'),
      JSON.stringify({ console: { calls: { upload: { unsupported: true } } } }),
    );
    const sandbox = await startSandbox({ withdrawalTickMs: 0 });
    const gateway = await startGateway(
      { CHAT_BACKEND_URL: sandbox.url, BACKEND_MAP: path.join(dir, 'map.json') },
      sandbox,
    );
    try {
      const res = await upload(gateway, 'kind=image&name=logo.png', png());
      expect(res.statusCode).toBe(404);
      expect(await res.body.json()).toMatchObject({
        error: 'UNSUPPORTED_BY_BACKEND',
        data: { call: 'console.upload' },
      });
      expect(sandbox.app.sandboxCalls.some((c) => c.path === '/manage/upload')).toBe(false);
      const offer = await request(`${gateway.url}${GATEWAY_PATHS.backendOffer}`, {
        headers: { cookie: gateway.cookie },
      });
      expect(((await offer.body.json()) as { unsupported: { console: string[] } }).unsupported.console).toContain(
        'upload',
      );
    } finally {
      await gateway.app.close();
      await sandbox.close();
    }
  });
});
