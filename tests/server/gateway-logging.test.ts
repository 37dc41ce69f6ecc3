import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { REDACT_PATHS } from '../../server/lib/logger.js';
import { SAME_ORIGIN, TEST_KEY_TEXT, writeFakeUi } from './support/gateway.js';
import { sendJson, startFakeBackend } from './support/fake-backend.js';
import { setCookieValues } from './support/session.js';

describe('logs', () => {
  it('never contain a token, password or cookie, even at trace level', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const backend = await startFakeBackend();
    backend.route('POST /manage/logIn', (_call, res) => sendJson(res, { code: 200, msg: 'ok', data: { token: 'SECRET-TOKEN-42', userId: 3 } }));
    backend.route('GET /manage/fail', (_call, res) => {
      res.writeHead(200, { 'w-enable-mode': '1' });
      res.end('not base64 at all!');
    });
    const config = loadConfig({
      CHAT_BACKEND_URL: backend.url,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gw-log-')),
      RESPONSE_AES_KEY: TEST_KEY_TEXT,
      UI_DIR: writeFakeUi(),
      LOG_LEVEL: 'trace',
    });
    const app = await buildApp({ config, logger: { level: 'trace', stream, redact: { paths: REDACT_PATHS, censor: '[redacted]' } } });
    let sealed = '';
    try {
      const login = await app.inject({ method: 'POST', url: '/manage/logIn', headers: SAME_ORIGIN, payload: { account: 'admin', password: 'PASSWORD-99' } });
      const cookies = setCookieValues(login.headers['set-cookie']);
      sealed = cookies.token!;
      await app.inject({
        method: 'GET',
        url: '/manage/fail',
        cookies,
        headers: { authorization: 'Bearer SECRET-BEARER' },
      });
    } finally {
      await app.close();
      await backend.close();
    }
    const text = lines.join('');
    // One line per request, plus the decode failure: the calls above were really logged.
    expect(lines.filter((line) => line.includes('"request completed"'))).toHaveLength(2);
    expect(text).toContain('could not decode an encoded answer');
    expect(sealed.length).toBeGreaterThan(20);
    for (const secret of ['SECRET-TOKEN-42', 'PASSWORD-99', 'SECRET-BEARER', sealed]) expect(text).not.toContain(secret);
  });
});
