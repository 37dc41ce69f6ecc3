import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC_ROUTES, safeRedirectPath } from '../contract/index.js';
import { errorBody } from '../errors.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NEVER_CACHE = 'no-cache, no-store, must-revalidate';

/** Paths the gateway answers in JSON: a wrong one there is an API mistake, never a page. */
function isApiPath(url: string): boolean {
  return (
    url === '/api' ||
    url.startsWith('/api/') ||
    url === '/manage' ||
    url.startsWith('/manage/') ||
    url.startsWith('/plate/')
  );
}

function isHtmlNavigation(request: FastifyRequest, pathname: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  // The root address is the console, whoever asks: curl, probes and scripts send Accept: */*.
  if (pathname === '/' || request.headers['sec-fetch-mode'] === 'navigate') return true;
  const accept = request.headers.accept;
  return typeof accept === 'string' && accept.includes('text/html');
}

function isPublicRoute(pathname: string): boolean {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return PUBLIC_ROUTES.includes(trimmed);
}

/**
 * Serves the built UI: hashed assets cached for good (with their build-time .br/.gz copies),
 * index.html never cached, the SPA fallback for client routes, and the login redirect for
 * navigations without a session (so the first paint of a bookmarked page is the login form).
 */
export default fp(
  async (app) => {
    const root = path.resolve(app.config.uiDir);
    const indexPath = path.join(root, 'index.html');
    const indexHtml = existsSync(indexPath) ? readFileSync(indexPath) : null;
    if (!indexHtml) app.log.error({ uiDir: root }, 'the UI is not built (run `npm run build`); pages answer 503');

    if (existsSync(root)) {
      await app.register(fastifyStatic, {
        root,
        prefix: '/',
        index: false,
        preCompressed: true,
        wildcard: true,
        cacheControl: false,
        // A folder (the root, /assets/) is never a file: without this, a client that accepts no
        // pre-compressed copy gets the file server's directory 403 instead of the page or a 404.
        allowedPath: (pathname) => !pathname.endsWith('/'),
        setHeaders: (reply, filePath) => {
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
          reply.header('cache-control', immutable ? IMMUTABLE : NEVER_CACHE);
        },
      });
    }

    const sendIndex = (reply: FastifyReply) => {
      if (!indexHtml) {
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The console UI is not built. Run `npm run build` and restart.');
      }
      return reply.code(200).header('cache-control', NEVER_CACHE).type('text/html; charset=utf-8').send(indexHtml);
    };

    app.setNotFoundHandler((request, reply) => {
      const url = request.url;
      const pathname = url.split('?')[0] ?? '/';
      if (isApiPath(pathname) || !isHtmlNavigation(request, pathname) || /\.[a-z0-9]{1,8}$/i.test(pathname)) {
        return reply.code(404).send(errorBody('NOT_FOUND', `No such endpoint: ${request.method} ${pathname}`));
      }
      // A session the gateway vouches for, not just a cookie: an expired or logged-out one goes
      // to the login form with the page it wanted, not to a console that will refuse every call.
      if (!request.session && !isPublicRoute(pathname)) {
        return reply.redirect(`/login?redirect=${encodeURIComponent(safeRedirectPath(url))}`, 302);
      }
      return sendIndex(reply);
    });
  },
  { name: 'static-ui', dependencies: ['session'] },
);
