import type { FastifyInstance } from 'fastify';
import type { SiteConfig } from '../../contract/index.js';
import { CALLS } from '../../contract/index.js';
import { ok } from '../errors.js';
import { hashText } from '../lib/prng.js';
import type { SandboxStore } from '../store/index.js';

/** The site configuration and the file server (/plate/*) that holds its icons and users' avatars. */

export const SITE_CONFIG: Required<SiteConfig> = {
  webIconPath: 'icons/favicon.svg',
  chatRoomName: 'Nimbus Chat',
  logoIconPath: 'icons/logo.svg',
};

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">
<rect width="64" height="64" rx="14" fill="#409EFF"/>
<path d="M14 20a8 8 0 0 1 8-8h20a8 8 0 0 1 8 8v14a8 8 0 0 1-8 8H28l-9 8v-8h1a6 6 0 0 1-6-6z" fill="#fff"/>
<circle cx="25" cy="27" r="3" fill="#409EFF"/><circle cx="32" cy="27" r="3" fill="#409EFF"/><circle cx="39" cy="27" r="3" fill="#409EFF"/>
</svg>
`;

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128" width="128" height="128">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#66B1FF"/><stop offset="1" stop-color="#337ECC"/></linearGradient></defs>
<circle cx="64" cy="64" r="60" fill="url(#g)"/>
<path d="M34 48a14 14 0 0 1 14-14h32a14 14 0 0 1 14 14v20a14 14 0 0 1-14 14H58L44 94V82a10 10 0 0 1-10-10z" fill="#fff"/>
<path d="M52 58h24M52 66h16" stroke="#409EFF" stroke-width="5" stroke-linecap="round"/>
</svg>
`;

const ICONS: ReadonlyMap<string, string> = new Map([
  [SITE_CONFIG.webIconPath, FAVICON],
  [SITE_CONFIG.logoIconPath, LOGO],
]);

const AVATAR_COLOURS = ['#409EFF', '#67C23A', '#E6A23C', '#F56C6C', '#909399', '#8E44AD', '#16A085', '#D35400'];

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A generated avatar: the first character of the name (emoji and Han characters included) on a colour. */
function avatar(name: string): string {
  const initial = Array.from(name.trim())[0] ?? '?';
  const colour = AVATAR_COLOURS[hashText(name) % AVATAR_COLOURS.length]!;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96" width="96" height="96">
<rect width="96" height="96" fill="${colour}"/>
<text x="48" y="50" fill="#fff" font-family="system-ui, sans-serif" font-size="44" text-anchor="middle" dominant-baseline="central">${escapeXml(initial.toLocaleUpperCase())}</text>
</svg>
`;
}

export function registerFiles(app: FastifyInstance, store: SandboxStore): void {
  app.get(CALLS.siteConfig, async () => ok({ ...SITE_CONFIG }));

  app.get('/plate/*', async (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    let svg = ICONS.get(path);
    const avatarMatch = /^avatars\/(group-)?(\d{1,9})\.svg$/.exec(path);
    if (svg === undefined && avatarMatch) {
      const id = Number(avatarMatch[2]);
      const owner = avatarMatch[1] ? store.groups.get(id)?.name : store.users.get(id)?.nickname;
      if (owner !== undefined) svg = avatar(owner);
    }
    if (svg === undefined) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    return reply
      .header('cache-control', 'public, max-age=3600')
      // An SVG opened directly is a document: it must not be able to run script.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .header('x-content-type-options', 'nosniff')
      .type('image/svg+xml')
      .send(svg);
  });
}
