import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A REST backend in a dialect the console has never seen, for the probe's --write-map: it logs
 * in at /api/v2/auth/sign-in ({login_name, passwd}, a bearer token back), wraps every answer in
 * {status: "OK" | "DENIED", detail, payload}, pages with page/per_page, writes snake_case keys,
 * text ids, epoch-second and local times, money as decimal text, states in capitals, and serves
 * its OpenAPI 3 document at /v3/api-docs. It only knows members and banned words; every other
 * path is a plain HTTP 404.
 */

type Row = Record<string, unknown>;

export interface ForeignBackend {
  url: string;
  calls: { method: string; url: string; body: string }[];
  members: Row[];
  close(): Promise<void>;
}

const TOKEN = 'f0reign-t0ken';

const OPENAPI = {
  openapi: '3.0.3',
  info: { title: 'Foreign chat admin', version: '2' },
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  paths: {
    '/api/v2/auth/sign-in': {
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { login_name: { type: 'string' }, passwd: { type: 'string' } } },
            },
          },
        },
        responses: { '200': { description: 'signed in' } },
      },
    },
    '/api/v2/members': {
      get: {
        parameters: ['page', 'per_page', 'q'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
        responses: { '200': { description: 'a page of members' } },
      },
    },
    '/api/v2/members/{memberId}': {
      get: {
        parameters: [{ name: 'memberId', in: 'path', required: true }],
        responses: { '200': { description: 'one' } },
      },
      patch: {
        parameters: [{ name: 'memberId', in: 'path', required: true }],
        responses: { '200': { description: 'saved' } },
      },
    },
    '/api/v2/members/{memberId}/suspend': {
      post: {
        parameters: [{ name: 'memberId', in: 'path', required: true }],
        requestBody: {
          content: { 'application/json': { schema: { type: 'object', properties: { note: { type: 'string' } } } } },
        },
        responses: { '200': { description: 'suspended' } },
      },
    },
    '/api/v2/banned-words': {
      get: {
        parameters: ['page', 'per_page'].map((name) => ({ name, in: 'query', schema: { type: 'integer' } })),
        responses: { '200': { description: 'a page of words' } },
      },
    },
  },
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startForeignBackend(): Promise<ForeignBackend> {
  const members: Row[] = [
    {
      id: '1001',
      login_name: 'ann',
      display_name: 'Ann',
      mobile: '+8613800000001',
      state: 'ACTIVE',
      wallet_balance: '12.30',
      created_at: 1717200000,
      last_seen_at: '2024-06-02T08:00:00Z',
      avatar_url: 'https://img.example/ann.png',
      is_online: true,
    },
    {
      id: '1002',
      login_name: 'bob',
      display_name: 'Bob',
      mobile: '',
      state: 'SUSPENDED',
      wallet_balance: '0.50',
      created_at: 1717286400,
      last_seen_at: '2024-06-03T09:30:00Z',
      avatar_url: '',
      is_online: false,
    },
  ];
  const words: Row[] = [{ id: '7', text: 'spam', added_at: '2024-06-01 10:00:00' }];
  const calls: ForeignBackend['calls'] = [];
  // A test's fake: an answer it cannot give fails that test's own request.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = await readBody(req);
    calls.push({ method: req.method ?? 'GET', url: req.url ?? '/', body });
    const send = (status: number, json: unknown) => {
      const text = JSON.stringify(json);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(text);
    };
    const ok = (payload: unknown) => send(200, { status: 'OK', detail: 'done', payload });
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /v3/api-docs') return send(200, OPENAPI);
    if (route === 'POST /api/v2/auth/sign-in') {
      const form = JSON.parse(body || '{}') as Row;
      if (form.login_name !== 'root' || form.passwd !== 'hunter2')
        return send(401, { status: 'DENIED', detail: 'bad credentials' });
      return ok({ access_token: TOKEN, admin_id: 1, expires_in: 3600 });
    }
    if (!url.pathname.startsWith('/api/v2/')) return send(404, { error: 'no route' });
    if (req.headers.authorization !== `Bearer ${TOKEN}`)
      return send(401, { status: 'DENIED', detail: 'sign in first' });
    const page = (rows: Row[]) => {
      const n = Math.max(1, Number(url.searchParams.get('page') ?? 1));
      const size = Math.max(1, Number(url.searchParams.get('per_page') ?? 20));
      return ok({ items: rows.slice((n - 1) * size, n * size), total_items: rows.length });
    };
    if (route === 'GET /api/v2/members') {
      const q = url.searchParams.get('q');
      return page(q ? members.filter((m) => String(m.login_name).includes(q)) : members);
    }
    if (route === 'GET /api/v2/banned-words') return page(words);
    const one = /^\/api\/v2\/members\/([^/]+)(\/suspend)?$/.exec(url.pathname);
    const member = one ? members.find((m) => m.id === one[1]) : undefined;
    if (one && !member) return send(200, { status: 'MISSING', detail: 'no such member' });
    if (member && req.method === 'GET' && !one![2]) return ok(member);
    if (member && req.method === 'POST' && one![2]) {
      member.state = 'SUSPENDED';
      return ok({ id: member.id });
    }
    send(404, { error: 'no route' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    members,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
