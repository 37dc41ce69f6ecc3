/**
 * A backend answering /manage/bench/decode?mode=M&size=N with the body the decode scenario asked
 * it to prepare: the JSON of makeJsonBody(N) encoded as w-enable-mode M (mode 3 over gzip).
 * Bodies are encoded once, ahead of the measurement, so the backend's own work stays out of it.
 */
import { createServer } from 'node:http';
import { encodeBody, type EncodedMode } from '../../../server/codec/index.js';
import { benchKey, makeJsonBody } from '../lib/bodies.js';
import { sendReady, serveRequests } from '../../support/child.js';
import { answerBenchLogin } from '../lib/session.js';

const prepared = new Map<string, Buffer>();
const keyOf = (mode: number, size: number) => `${mode}:${size}`;

const server = createServer((req, res) => {
  if (answerBenchLogin(req, res)) return;
  req.resume();
  const url = new URL(req.url ?? '/', 'http://backend');
  const body = prepared.get(keyOf(Number(url.searchParams.get('mode')), Number(url.searchParams.get('size'))));
  if (url.pathname !== '/manage/bench/decode' || !body) {
    const text = JSON.stringify({ code: 404, msg: 'not prepared' });
    res.writeHead(404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
    return;
  }
  res.writeHead(200, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': body.length,
    'w-enable-mode': url.searchParams.get('mode')!,
  });
  res.end(body);
});
server.keepAliveTimeout = 120_000;
server.headersTimeout = 121_000;

serveRequests({
  prepare: (message) => {
    const mode = Number(message.mode) as EncodedMode;
    const size = Number(message.size);
    const text = encodeBody(makeJsonBody(size), mode, benchKey(), 'gzip');
    const body = Buffer.from(text, 'latin1');
    prepared.set(keyOf(mode, size), body);
    return { encodedBytes: body.length };
  },
  drop: (message) => {
    prepared.delete(keyOf(Number(message.mode), Number(message.size)));
    return {};
  },
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  sendReady({ port, url: `http://127.0.0.1:${port}` });
});
