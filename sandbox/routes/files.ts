import type { FastifyInstance } from 'fastify';
import type { SiteConfig } from '../../server/contract/index.js';
import { CALLS } from '../../server/contract/index.js';
import { ok } from '../errors.js';
import { identiconPng } from '../lib/identicon-png.js';
import { hashText } from '../lib/prng.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import { EMOJI } from '../store/seed-site.js';
import type { UploadStore } from './uploads.js';

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

const EMOJI_CHARS: ReadonlyMap<string, string> = new Map(EMOJI.map(([name, char]) => [name, char]));

/** A generated emoji: the character on a soft round tile. */
function emoji(char: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96" width="96" height="96">
<circle cx="48" cy="48" r="46" fill="#FFF4D6"/>
<text x="48" y="52" font-family="'Noto Color Emoji', 'Apple Color Emoji', 'Segoe UI Emoji', sans-serif" font-size="56" text-anchor="middle" dominant-baseline="central">${escapeXml(char)}</text>
</svg>
`;
}

/** A wide picture for splash screens and banners, titled with the file's name. */
function banner(name: string): string {
  const colour = AVATAR_COLOURS[hashText(name) % AVATAR_COLOURS.length]!;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 160" width="360" height="160">
<rect width="360" height="160" fill="${colour}"/>
<text x="180" y="84" fill="#fff" font-family="system-ui, sans-serif" font-size="28" text-anchor="middle" dominant-baseline="central">${escapeXml(name)}</text>
</svg>
`;
}

/** Images of the site-configuration tables (default avatars, emoji, discover icons, app pictures), drawn from their paths. */
function generated(path: string): string | undefined {
  const match = /^(defaults\/avatars|emoji|discover|app)\/([A-Za-z0-9_-]{1,64})\.svg$/.exec(path);
  if (!match) return undefined;
  const [, folder, file] = match as unknown as [string, string, string];
  if (folder === 'emoji') return emoji(EMOJI_CHARS.get(file) ?? '🙂');
  const words = file.replace(/^\d+-/, '').replace(/[-_]+/g, ' ');
  if (folder === 'app') return banner(words);
  return avatar(words);
}

export function registerFiles(app: FastifyInstance, store: SandboxStore, uploads: UploadStore): void {
  // The public site config follows what the site-functions page saved.
  app.get(CALLS.siteConfig, async () => {
    const saved = store.settings.siteFunctions ?? {};
    const text = (value: unknown, fallback: string) =>
      typeof value === 'string' && value.trim() !== '' ? value : fallback;
    return ok({
      webIconPath: text(saved.webIconPath, SITE_CONFIG.webIconPath),
      chatRoomName: text(saved.chatRoomName, SITE_CONFIG.chatRoomName),
      logoIconPath: text(saved.logoIconPath, SITE_CONFIG.logoIconPath),
    });
  });

  app.get('/plate/*', async (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    if (uploads.fileOf(path)) {
      const served = await uploads.serve(path, reply);
      return served ?? reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    }
    let svg = ICONS.get(path) ?? generated(path);
    const avatarMatch = /^avatars\/(group-)?(\d{1,9})\.(svg|png)$/.exec(path);
    if (svg === undefined && avatarMatch) {
      const id = Number(avatarMatch[2]);
      const owner = avatarMatch[1] ? store.groups.get(id)?.name : store.users.get(id)?.nickname;
      if (owner !== undefined && avatarMatch[3] === 'png') {
        const colour = AVATAR_COLOURS[hashText(owner) % AVATAR_COLOURS.length]!;
        return reply
          .header('cache-control', 'public, max-age=3600')
          .header('x-content-type-options', 'nosniff')
          .type('image/png')
          .send(identiconPng(hashText(`${owner}#${id}`), colour));
      }
      if (owner !== undefined) svg = avatar(owner);
    }
    if (svg === undefined) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    return (
      reply
        .header('cache-control', 'public, max-age=3600')
        // An SVG opened directly is a document: it must not be able to run script.
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .header('x-content-type-options', 'nosniff')
        .type('image/svg+xml')
        .send(svg)
    );
  });
}
