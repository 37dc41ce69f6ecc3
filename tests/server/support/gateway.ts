import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';

export const TEST_KEY_TEXT = '0123456789abcdef0123456789abcdef';

/** Same-origin headers for unsafe calls through inject (whose host is localhost:80). */
export const SAME_ORIGIN = { origin: 'http://localhost:80', host: 'localhost:80' } as const;

/** A small built UI, so static serving is tested without running the real build. */
export function writeFakeUi(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ui-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/main-ABC123.js"></script></head><body><div id="root"></div></body></html>',
  );
  const js = 'console.log("console bundle");'.repeat(40);
  writeFileSync(path.join(dir, 'assets', 'main-ABC123.js'), js);
  writeFileSync(path.join(dir, 'assets', 'main-ABC123.js.gz'), gzipSync(js));
  writeFileSync(path.join(dir, 'assets', 'main-ABC123.js.br'), brotliCompressSync(js));
  return dir;
}

export async function buildTestGateway(env: Record<string, string>): Promise<FastifyInstance> {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gw-data-')),
    RESPONSE_AES_KEY: TEST_KEY_TEXT,
    UI_DIR: writeFakeUi(),
    ...env,
  });
  return buildApp({ config, logger: false });
}

/** The name=value pairs and attributes of each Set-Cookie header. */
export function parseSetCookies(
  header: string | string[] | undefined,
): Map<string, { value: string; attributes: string[] }> {
  const list = header === undefined ? [] : Array.isArray(header) ? header : [header];
  const out = new Map<string, { value: string; attributes: string[] }>();
  for (const line of list) {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const eq = pair!.indexOf('=');
    out.set(pair!.slice(0, eq), { value: pair!.slice(eq + 1), attributes: attributes.map((a) => a.toLowerCase()) });
  }
  return out;
}
