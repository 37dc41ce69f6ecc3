/**
 * The backend of the events scenario: every session holds the withdrawal-review permission, and
 * the pending count is whatever the bench last set over IPC. Polls of the count are counted per
 * token, so the bench can tell polls per session from polls per tab.
 */
import { createServer, type ServerResponse } from 'node:http';
import { WITHDRAWAL_REVIEW_PERMISSION } from '../../../server/contract/index.js';
import { sendReady, serveRequests } from '../../support/child.js';
import { answerBenchLogin } from '../lib/session.js';

const countPath = process.env.WITHDRAWAL_COUNT_PATH ?? '/manage/finance/cashWithdrawalCheck/count';
let count = 0;
let polls = 0;
let permissionCalls = 0;
const tokens = new Set<string>();

function send(res: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const server = createServer((req, res) => {
  if (answerBenchLogin(req, res)) return;
  req.resume();
  const pathname = (req.url ?? '/').split('?')[0];
  if (pathname === '/manage/permission') {
    permissionCalls++;
    return send(res, { code: 200, msg: 'ok', data: [{ permission: WITHDRAWAL_REVIEW_PERMISSION }] });
  }
  if (pathname === countPath) {
    polls++;
    tokens.add(String(req.headers['w-token'] ?? ''));
    return send(res, { code: 200, msg: 'ok', data: count });
  }
  send(res, { code: 404, msg: 'no such call' });
});
server.keepAliveTimeout = 120_000;
server.headersTimeout = 121_000;

serveRequests({
  'set-count': (message) => {
    count = Number(message.count);
    return { count, at: Date.now() };
  },
  'reset-polls': () => {
    polls = 0;
    tokens.clear();
    return { at: Date.now() };
  },
  polls: () => ({ polls, tokens: tokens.size, permissionCalls, at: Date.now() }),
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  sendReady({ port, url: `http://127.0.0.1:${port}` });
});
