/**
 * Browser tabs by the thousand: raw node:http GETs of /api/events, each on its own socket, with
 * just enough SSE parsing to know the last withdrawal count each stream saw and when.
 */
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { WITHDRAWAL_EVENT } from '../../../server/contract/index.js';
import { sendReady, serveRequests } from '../../support/child.js';
import { SseParser, type SseEvent } from '../../support/sse-client.js';

interface Stream {
  session: string;
  req: ClientRequest;
  res: IncomingMessage | null;
  lastCount: number | null;
  parser: SseParser;
  /** Events of the parser already looked at. */
  read: number;
}

const streams: Stream[] = [];
/** count -> streams that have seen it, and when the last of them did. */
const seen = new Map<
  number,
  { streams: number; firstAt: number; lastAt: number; bySession: Map<string, [number, number]> }
>();
let broken = 0;

function onEvent(stream: Stream, { event, data }: SseEvent): void {
  if (event !== WITHDRAWAL_EVENT) return;
  const count = (JSON.parse(data) as { count: number }).count;
  if (count === stream.lastCount) return;
  stream.lastCount = count;
  const now = Date.now();
  const entry = seen.get(count) ?? { streams: 0, firstAt: now, lastAt: now, bySession: new Map() };
  entry.streams++;
  entry.lastAt = now;
  const session = entry.bySession.get(stream.session);
  if (session) session[1] = now;
  else entry.bySession.set(stream.session, [now, now]);
  seen.set(count, entry);
}

function openOne(port: number, cookie: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path: '/api/events',
      agent: false,
      headers: { cookie, accept: 'text/event-stream' },
    });
    const stream: Stream = { session: cookie, req, res: null, lastCount: null, parser: new SseParser(), read: 0 };
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return resolve(false);
      }
      stream.res = res;
      streams.push(stream);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        stream.parser.feed(chunk);
        const { events } = stream.parser;
        while (stream.read < events.length) onEvent(stream, events[stream.read++]!);
      });
      res.on('close', () => broken++);
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

serveRequests({
  /** Opens `cookies.length` streams, a window of them at a time so the gateway's backlog is not flooded. */
  open: async (message) => {
    const port = Number(message.port);
    const cookies = message.cookies as string[];
    let opened = 0;
    let failed = 0;
    let next = 0;
    const worker = async () => {
      while (next < cookies.length) {
        const cookie = cookies[next++]!;
        if (await openOne(port, cookie)) opened++;
        else failed++;
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    return { opened, failed };
  },
  /** Waits until every open stream has seen `count`; answers when the last one did. */
  expect: async (message) => {
    const count = Number(message.count);
    const deadline = Date.now() + Number(message.timeoutMs ?? 10_000);
    while (Date.now() < deadline) {
      const entry = seen.get(count);
      if (entry && entry.streams >= streams.length) {
        return {
          complete: true,
          firstAt: entry.firstAt,
          lastAt: entry.lastAt,
          streams: streams.length,
          bySession: Object.fromEntries(entry.bySession),
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return {
      complete: false,
      firstAt: seen.get(count)?.firstAt ?? null,
      lastAt: seen.get(count)?.lastAt ?? null,
      saw: seen.get(count)?.streams ?? 0,
      streams: streams.length,
    };
  },
  status: () => ({ open: streams.length - broken, broken }),
  close: () => {
    for (const stream of streams) stream.req.destroy();
    return {};
  },
});
sendReady({});
