import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { RESOURCES, type Resource } from '../server/contract/index.js';
import { labelKeysOf } from '../web/engine/shared/label-keys.js';
import { humanise } from '../web/lib/humanise.js';

/**
 * `npm run labels`: the skeleton of a new screen's labels in the four languages. Every label the
 * declarations in RESOURCES show (title, fields, options, actions: label-keys.ts) that a language
 * file lacks is written into it, above its MARK line, as the humanised key ("Publish date"): in
 * English as the label, in the others marked `// untranslated` for the translator. What it writes
 * is what the screen already shows before it runs (the engine falls back to the same humanised
 * key), so running it changes no screen: it leaves the translator a line to change in each
 * language. `--check` writes nothing and exits 1 when a label is missing (a test runs the same).
 */

export const LANGUAGES = ['en', 'es', 'ja', 'zh'] as const;
export type LabelLanguage = (typeof LANGUAGES)[number];

const SCRIPT = fileURLToPath(import.meta.url);
/** The screens' labels (web/i18n/resources/<language>.ts). */
export const LABELS_DIR = path.join(path.dirname(SCRIPT), '../web/i18n/resources');
/** The line that ends each language file's own labels: new ones are written above it. */
export const MARK = '// npm run labels writes the labels of new screens above this line';
export const UNTRANSLATED = '// untranslated';

/** Every label the screens of `resources` show, once, in declaration order. */
export function wantedLabels(resources: readonly Resource[] = RESOURCES): string[] {
  return [...new Set(resources.flatMap(labelKeysOf))];
}

/** The keys a language file writes (`'field.title': ...`), read off its text. */
export function writtenKeys(text: string): Set<string> {
  return new Set([...text.matchAll(/^\s*(?:'([^']+)'|"([^"]+)")\s*:/gm)].map((m) => (m[1] ?? m[2])!));
}

/** What a label reads before anyone writes it: its last name humanised (`option.status.draft`: "Draft"). */
export function standIn(key: string): string {
  const [kind, ...rest] = key.split('.');
  // An option's key is option.<field>.<value>; a value may be a path (a permission): its last segment.
  const name = kind === 'option' ? rest.slice(1).join('.') : rest.join('.');
  return humanise(name.split('/').filter(Boolean).at(-1) ?? name);
}

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export interface WriteOptions {
  dir?: string;
  resources?: readonly Resource[];
  /** Only report what is missing. */
  check?: boolean;
}

/** Writes the missing labels into each language's file; answers what was (or, checking, would be) written. */
export async function writeLabels({
  dir = LABELS_DIR,
  resources = RESOURCES,
  check = false,
}: WriteOptions = {}): Promise<Record<LabelLanguage, string[]>> {
  const wanted = wantedLabels(resources);
  // The repository's formatting, wherever the files are (a test writes into a copy).
  const formatting = (await resolveConfig(SCRIPT)) ?? {};
  const missingBy = {} as Record<LabelLanguage, string[]>;
  for (const language of LANGUAGES) {
    const file = path.join(dir, `${language}.ts`);
    const text = readFileSync(file, 'utf8');
    const written = writtenKeys(text);
    const missing = wanted.filter((key) => !written.has(key));
    missingBy[language] = missing;
    if (check || missing.length === 0) continue;
    const at = text.indexOf(MARK);
    if (at < 0) throw new Error(`${file} has lost its line "${MARK}": put it back after its last label`);
    const lineStart = text.lastIndexOf('\n', at) + 1;
    const note = language === 'en' ? '' : ` ${UNTRANSLATED}`;
    const lines = missing.map((key) => `  ${quote(key)}: ${quote(standIn(key))},${note}\n`).join('');
    const next = text.slice(0, lineStart) + lines + text.slice(lineStart);
    writeFileSync(file, await format(next, { ...formatting, filepath: file }));
  }
  return missingBy;
}

if (process.argv[1] === SCRIPT) {
  const check = process.argv.includes('--check');
  const missing = await writeLabels({ check });
  let count = 0;
  for (const language of LANGUAGES) {
    count += missing[language].length;
    if (missing[language].length > 0)
      console.log(`${language}: ${check ? 'missing' : 'wrote'} ${missing[language].join(', ')}`);
  }
  if (count === 0) console.log('every screen label is written in every language');
  if (check && count > 0) process.exitCode = 1;
}
