import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { REPO_ROOT } from '../support/paths.js';

/**
 * The README stays a newcomer's first page, and the documents under docs/ stay whole: every link
 * between them reaches a file (and a heading, for an #anchor), and every variable the server
 * reads is named somewhere an operator or developer will find it.
 */

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** Every file under `folder` (relative to the repository) whose name ends in `extension`. */
function filesUnder(folder: string, extension: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(REPO_ROOT, folder), { withFileTypes: true })) {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(relative, extension));
    else if (entry.name.endsWith(extension)) found.push(relative);
  }
  return found.sort();
}

const MARKDOWN = ['README.md', ...filesUnder('docs', '.md')];

/** The text without fenced blocks and inline code: a link written inside code is no link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const text = match[1]!.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

interface Link {
  from: string;
  target: string;
}

function relativeLinks(file: string): Link[] {
  const links: Link[] = [];
  for (const match of prose(read(file)).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    links.push({ from: file, target });
  }
  return links;
}

/** Why `link` leads nowhere, or null when it reaches its file (and heading). */
function brokenBecause({ from, target }: Link): string | null {
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const file =
    pathPart === ''
      ? from
      : path.posix.normalize(path.posix.join(path.posix.dirname(from), decodeURIComponent(pathPart)));
  if (file.startsWith('..')) return 'points outside the repository';
  if (!existsSync(path.join(REPO_ROOT, file))) return `${file} does not exist`;
  if (anchor === undefined || anchor === '') return null;
  if (!file.endsWith('.md') || statSync(path.join(REPO_ROOT, file)).isDirectory()) return null;
  return anchorsOf(read(file)).has(anchor) ? null : `${file} has no heading #${anchor}`;
}

/** Every variable the server and its sandbox read: through loadConfig, `process.env`, the constants it names them by, and a map's services. */
function variablesTheServerReads(): string[] {
  const seen = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_target, name) {
      if (typeof name === 'string') seen.add(name);
      return undefined;
    },
  });
  loadConfig(env, { sandboxKey: SANDBOX_AES_KEY_TEXT });
  const sources = [...filesUnder('server', '.ts'), ...filesUnder('sandbox', '.ts')].map(read);
  const constants = new Map<string, string>();
  for (const source of sources) {
    for (const m of source.matchAll(/\bconst ([A-Z][A-Z0-9_]*) = '([A-Z][A-Z0-9_]*)'/g)) constants.set(m[1]!, m[2]!);
  }
  for (const source of sources) {
    for (const m of source.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) seen.add(m[1]!);
    for (const m of source.matchAll(/process\.env\[([A-Z][A-Z0-9_]*)\]/g)) {
      const name = constants.get(m[1]!);
      expect(name, `process.env[${m[1]}]: no constant names it`).toBeDefined();
      seen.add(name!);
    }
    for (const m of source.matchAll(/process\.env\[['"]([A-Z][A-Z0-9_]*)['"]\]/g)) seen.add(m[1]!);
  }
  for (const map of [...filesUnder('server', '.json'), ...filesUnder('sandbox', '.json')]) {
    for (const m of read(map).matchAll(/"env": "([A-Z][A-Z0-9_]*)"/g)) seen.add(m[1]!);
  }
  return [...seen].sort();
}

describe('README.md', () => {
  const readme = read('README.md');

  it('stays a first page: under 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThan(250);
  });

  it('gives the commands to run and to test the console', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
  });

  it('lists every document under docs/ in its map', () => {
    const linked = new Set(relativeLinks('README.md').map((link) => link.target.split('#')[0]));
    for (const file of filesUnder('docs', '.md')) expect(linked, `README.md does not link ${file}`).toContain(file);
  });
});

describe('links between the documents', () => {
  const links = MARKDOWN.flatMap(relativeLinks);

  it('finds the links it checks', () => {
    expect(links.length).toBeGreaterThan(30);
    expect(links.some((link) => link.target.includes('#'))).toBe(true);
  });

  it('reach an existing file and, for an #anchor into a document, an existing heading', () => {
    const broken = links.flatMap((link) => {
      const why = brokenBecause(link);
      return why === null ? [] : [`${link.from}: (${link.target}) ${why}`];
    });
    expect(broken).toEqual([]);
  });

  it('the anchor check knows headings from other text', () => {
    const anchors = anchorsOf(
      '# Operating it\n\n```sh\n# a comment\n```\n\n## Behind a reverse proxy (TLS)\n## Configuration\n### Configuration\n',
    );
    expect([...anchors]).toEqual(['operating-it', 'behind-a-reverse-proxy-tls', 'configuration', 'configuration-1']);
    expect(brokenBecause({ from: 'README.md', target: 'docs/operators.md#no-such-heading' })).toMatch(/no heading/);
    expect(brokenBecause({ from: 'docs/gateway.md', target: 'no-such-file.md' })).toMatch(/does not exist/);
  });
});

describe('environment variables', () => {
  const variables = variablesTheServerReads();
  const documents = filesUnder('docs', '.md').map(read);

  it('finds the variables the server reads', () => {
    expect(variables.length).toBeGreaterThan(40);
    for (const name of [
      'CHAT_BACKEND_URL',
      'SANDBOX_USERS',
      'NODE_ENV',
      'OPENIM_CHAT_API_URL',
      'GATEWAY_CLUSTER_WORKER',
    ])
      expect(variables).toContain(name);
  });

  it('are each named, in code, somewhere under docs/', () => {
    const undocumented = variables.filter((name) => {
      const named = new RegExp('`[^`\\n]*\\b' + name + '\\b[^`\\n]*`');
      return !documents.some((doc) => named.test(doc));
    });
    expect(undocumented).toEqual([]);
  });
});

describe('docs/record-pages.md', () => {
  // The History section once read "unset today" long after it was set: the page says what the code does.
  const views = read('web/screens/views.ts');
  const section = /### History\n([\s\S]*?)\n## /.exec(read('docs/record-pages.md'))?.[1] ?? '';

  it('describes the History section the record pages draw', () => {
    const set = /export const RECORD_HISTORY: RecordHistoryView = (\w+);/.exec(views)?.[1];
    expect(set, 'RECORD_HISTORY is set in web/screens/views.ts').toBeDefined();
    expect(section).toContain(`\`${set}\``);
    expect(section).toContain('/api/audit/history');
    expect(section).not.toMatch(/unset today|no audit trail/);
  });
});
