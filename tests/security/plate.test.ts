import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATE_CONTENT_SECURITY_POLICY } from '../../server/lib/plate-headers.js';
import { startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { startGateway, startRecordingBackend } from './support/rig.js';

/**
 * Hole 5: /plate/* served whatever the file server answered on the console's origin, so an
 * uploaded HTML file ran as the console. Every answer is now sandboxed, and only image, audio and
 * video types are inline; the rest is an octet-stream attachment. (tests/e2e/plate-script.test.ts
 * proves in Chromium that a console page cannot run a /plate answer as a script.)
 */

const FILES: Record<string, { type?: string; body: string; extra?: Record<string, string> }> = {
  '/plate/evil.html': { type: 'text/html; charset=utf-8', body: '<script>parent.stolen = document.cookie</script>' },
  '/plate/evil.js': { type: 'application/javascript', body: 'window.pwned = true' },
  '/plate/evil.svg': {
    type: 'image/svg+xml',
    body: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  },
  '/plate/untyped': { body: '<html><script>alert(1)</script></html>' },
  '/plate/avatar.png': { type: 'image/png', body: 'PNG', extra: { 'cache-control': 'public, max-age=3600' } },
  '/plate/voice.mp3': { type: 'audio/mpeg', body: 'ID3' },
  '/plate/clip.mp4': { type: 'video/mp4', body: 'MP4' },
  '/plate/app.apk': { type: 'application/vnd.android.package-archive', body: 'PK' },
  '/plate/inline.pdf': { type: 'application/pdf', body: '%PDF', extra: { 'content-disposition': 'inline' } },
  '/plate/own-csp.html': {
    type: 'text/html',
    body: '<p>',
    extra: { 'content-security-policy': "script-src 'unsafe-inline'" },
  },
};

describe('/plate answers', () => {
  let files: FakeBackend;
  let backend: FakeBackend;
  let gateway: Awaited<ReturnType<typeof startGateway>>;

  beforeAll(async () => {
    files = await startFakeBackend();
    for (const [path, file] of Object.entries(FILES)) {
      files.route(`GET ${path}`, (_call, res) => {
        res.writeHead(200, {
          ...(file.type ? { 'content-type': file.type } : {}),
          ...file.extra,
          'x-powered-by': 'FileServer/1.0',
          server: 'files',
        });
        res.end(file.body);
      });
    }
    backend = await startRecordingBackend();
    gateway = await startGateway(backend.url, { FILE_SERVER_URL: files.url });
  });
  afterAll(async () => {
    await gateway.app.close();
    await backend.close();
    await files.close();
  });

  it("always carry the sandboxing CSP and nosniff, and never the file server's own CSP or software", async () => {
    for (const path of Object.keys(FILES)) {
      const res = await fetch(`${gateway.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-security-policy'), path).toBe(PLATE_CONTENT_SECURITY_POLICY);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-powered-by'), path).toBeNull();
      expect(res.headers.get('server'), path).toBeNull();
    }
    expect(PLATE_CONTENT_SECURITY_POLICY).toBe("sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'");
  });

  it.each(['/plate/avatar.png', '/plate/evil.svg', '/plate/voice.mp3', '/plate/clip.mp4'])(
    'serve the media %s inline with its own type',
    async (path) => {
      const res = await fetch(`${gateway.url}${path}`);
      expect(res.headers.get('content-type')).toBe(FILES[path]!.type);
      expect(res.headers.get('content-disposition') ?? 'inline').toBe('inline');
    },
  );

  it.each([
    '/plate/evil.html',
    '/plate/evil.js',
    '/plate/untyped',
    '/plate/app.apk',
    '/plate/inline.pdf',
    '/plate/own-csp.html',
  ])('serve %s as an octet-stream attachment, which no browser renders or runs', async (path) => {
    const res = await fetch(`${gateway.url}${path}`);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe('attachment');
    expect(await res.text()).toBe(FILES[path]!.body); // the bytes themselves are untouched
  });

  it("keep the file server's caching of media", async () => {
    const res = await fetch(`${gateway.url}/plate/avatar.png`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('send no credentials and no cookie to the file server', async () => {
    const before = files.calls.length;
    await fetch(`${gateway.url}/plate/avatar.png`, {
      headers: { cookie: 'token=x; userId=1', authorization: 'Bearer leak' },
    });
    const [call] = files.calls.slice(before);
    expect(call!.headers.cookie).toBeUndefined();
    expect(call!.headers.authorization).toBeUndefined();
    expect(call!.headers['w-token']).toBeUndefined();
  });
});
