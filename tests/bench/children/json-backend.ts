/**
 * The smallest honest backend: node:http answering every path with the same ~1 KB JSON envelope,
 * so that the proxy scenario measures what sits in front of it, not the backend.
 */
import { createServer } from 'node:http';
import { sendReady, serveRequests } from '../../support/child.js';
import { answerBenchLogin } from '../lib/session.js';

const items = Array.from({ length: 8 }, (_, i) => ({
  id: 1000 + i,
  nickname: `user-${i}`,
  account: `account${i}@example.test`,
  status: i % 3 === 0 ? 'disabled' : 'enabled',
  createTime: 1_717_000_000_000 + i * 86_400_000,
}));
const body = Buffer.from(JSON.stringify({ code: 200, msg: 'ok', data: { total: 8, list: items } }));
let served = 0;

const server = createServer((req, res) => {
  if (answerBenchLogin(req, res)) return;
  served++;
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
// Longer than any run: the proxies in front keep their upstream connections for the whole run.
server.keepAliveTimeout = 120_000;
server.headersTimeout = 121_000;

serveRequests({ stats: () => ({ served, bodyBytes: body.length }) });
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  sendReady({ port, url: `http://127.0.0.1:${port}`, bodyBytes: body.length });
});
