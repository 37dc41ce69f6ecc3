import { execFile } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../support/paths.js';
import { tempDir } from '../../support/processes.js';

/**
 * A copy of the repository with a new management screen written in the four places the recipe
 * "Add a management screen" (docs/development.md) names, and nothing else, then built as
 * `node build.mjs` builds: the proof that those four places are all a screen takes. Each edit is
 * made where the recipe says, by inserting text after an anchor that every such file has.
 */

const run = promisify(execFile);

/** What the copy needs to build and run: the sources, the build, the formatting, the packages (linked). */
const COPIED = [
  'server',
  'sandbox',
  'web',
  'scripts',
  'build.mjs',
  'package.json',
  'tsconfig.json',
  '.prettierrc.json',
];

/** The new screen: a permission of its own, a status enum, a row action without inputs that only sets a field. */
export const ARTICLES = {
  id: 'articles',
  permission: '/manage/operation/article',
  path: '/articles',
  list: '/manage/operation/article/list',
  /** The English title a translator writes over the generated skeleton. */
  title: 'News articles',
} as const;

const DECLARATION = `
export const ARTICLE_STATUSES = ['draft', 'published'] as const;

export const ARTICLES = {
  kind: 'list',
  id: 'articles',
  ...at(PERMISSIONS.article),
  keywordFields: ['title', 'body'],
  defaultSort: '-publishDate',
  recordFields: ['title'],
  ...EDITABLE,
  fields: [
    ID,
    { key: 'title', kind: 'text', required: true, maxLength: 80, column: true },
    { key: 'body', kind: 'longtext', required: true, maxLength: 2000 },
    { key: 'publishDate', kind: 'date', column: true, sortable: true, filter: true },
    { key: 'status', kind: 'select', options: ARTICLE_STATUSES, required: true, column: true, filter: true },
  ],
  actions: [{ name: 'publish', target: 'row', when: { field: 'status', in: ['draft'] }, sets: { status: 'published' } }],
} as const satisfies ListResource;
`;

const ROUTE = `      screen({ path: '/articles', icon: 'document', screen: listScreen('articles', P.article) }),\n`;

const SEED = `  articles: () => [
    { id: 1, title: 'Launch notes', body: 'What is new.', publishDate: '2026-11-30', status: 'draft' },
    { id: 2, title: 'Maintenance window', body: 'Sunday night.', publishDate: '2026-11-20', status: 'published' },
  ],
`;

function insertAfter(file: string, anchor: string | RegExp, text: string): void {
  const source = readFileSync(file, 'utf8');
  const found = typeof anchor === 'string' ? source.indexOf(anchor) : source.search(anchor);
  if (found < 0) throw new Error(`${file} has no ${String(anchor)} to write after`);
  const length = typeof anchor === 'string' ? anchor.length : source.match(anchor)![0].length;
  writeFileSync(file, source.slice(0, found + length) + text + source.slice(found + length));
}

function insertBefore(file: string, anchor: string, text: string): void {
  const source = readFileSync(file, 'utf8');
  const found = source.indexOf(anchor);
  if (found < 0) throw new Error(`${file} has no ${anchor} to write before`);
  writeFileSync(file, source.slice(0, found) + text + source.slice(found));
}

/** The copy with the screen in its four places, built; answers the copy's folder. */
export async function buildWithNewScreen(): Promise<string> {
  const copy = tempDir('four-places-');
  for (const entry of COPIED) cpSync(path.join(REPO_ROOT, entry), path.join(copy, entry), { recursive: true });
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  const at = (file: string) => path.join(copy, file);

  // 1. The contract: the permission, and the declaration in its area's list.
  insertAfter(
    at('server/contract/permissions.ts'),
    'export const PERMISSIONS = {\n',
    `  article: '${ARTICLES.permission}',\n`,
  );
  // Above the area's list, which names it: the list is built as the module loads.
  insertBefore(
    at('server/contract/resources/operation.ts'),
    "/** This area's resources",
    DECLARATION.trimStart() + '\n',
  );
  insertAfter(
    at('server/contract/resources/operation.ts'),
    /export const OPERATION_RESOURCES[^=]*= \[\n/,
    '  ARTICLES,\n',
  );
  // 2. The route: one line in its menu group.
  insertAfter(at('web/app/routes.ts'), /title: 'route\.operation',[\s\S]*?children: \[\n/, ROUTE);
  // 3. The labels: the skeleton written, and one of them translated.
  await run(path.join(REPO_ROOT, 'node_modules/.bin/tsx'), ['scripts/write-labels.ts'], { cwd: copy });
  const en = at('web/i18n/resources/en.ts');
  const labelled = readFileSync(en, 'utf8').replace(
    "'resource.articles': 'Articles',",
    `'resource.articles': '${ARTICLES.title}',`,
  );
  if (!labelled.includes(ARTICLES.title)) throw new Error('npm run labels wrote no resource.articles');
  writeFileSync(en, labelled);
  // 4. The seed.
  insertAfter(at('sandbox/store/seeds.ts'), /export const SEEDS[^=]*= \{\n/, SEED);

  await run(process.execPath, ['build.mjs'], { cwd: copy, timeout: 240_000 });
  return copy;
}
