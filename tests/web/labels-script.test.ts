import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESOURCES, type ListResource } from '../../server/contract/index.js';
import { ID } from '../../server/contract/resources/common-fields.js';
import { LABELS_DIR, LANGUAGES, UNTRANSLATED, standIn, writeLabels, writtenKeys } from '../../scripts/write-labels.js';

/**
 * `npm run labels` (scripts/write-labels.ts): the labels place of a new screen. The shipped files
 * lack no label; a new declaration's labels are written into all four languages as their
 * humanised keys, the translations left marked, and a second run writes nothing.
 */

const NOTES = {
  kind: 'list',
  id: 'testNotes',
  path: '/manage/test/notes',
  permission: RESOURCES[0]!.permission,
  keywordFields: ['title'],
  defaultSort: '-id',
  fields: [
    ID,
    { key: 'title', kind: 'text', required: true, column: true },
    { key: 'noteState', kind: 'select', options: ['draft', 'pinned'], column: true },
  ],
  actions: [{ name: 'pinNote', target: 'row', sets: { noteState: 'pinned' } }],
} as const satisfies ListResource;

const NEW_KEYS = [
  'resource.testNotes',
  'field.noteState',
  'option.noteState.draft',
  'option.noteState.pinned',
  'action.pinNote',
];

describe('npm run labels', () => {
  it('finds every label of every declared screen written in all four languages', async () => {
    const missing = await writeLabels({ check: true });
    expect(missing).toEqual({ en: [], es: [], ja: [], zh: [] });
  });

  it("writes a new screen's labels into the four languages as humanised keys, the translations marked", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'labels-'));
    for (const language of LANGUAGES) cpSync(path.join(LABELS_DIR, `${language}.ts`), path.join(dir, `${language}.ts`));
    const resources = [...RESOURCES, NOTES];

    const written = await writeLabels({ dir, resources });
    for (const language of LANGUAGES) {
      // `field.title` is shared with screens written before: only what nobody labelled is new.
      expect(written[language], language).toEqual(NEW_KEYS);
      const text = readFileSync(path.join(dir, `${language}.ts`), 'utf8');
      for (const key of NEW_KEYS) expect(writtenKeys(text).has(key), `${language} ${key}`).toBe(true);
      const line = text.split('\n').find((l) => l.includes("'action.pinNote'"))!;
      expect(line).toContain("'Pin note'");
      expect(line.includes(UNTRANSLATED)).toBe(language !== 'en');
    }
    expect(standIn('option.permissions./manage/operation/article')).toBe('Article');
    expect(standIn('resource.testNotes')).toBe('Test notes');

    expect(await writeLabels({ dir, resources })).toEqual({ en: [], es: [], ja: [], zh: [] });
    expect(await writeLabels({ dir, resources, check: true })).toEqual({ en: [], es: [], ja: [], zh: [] });
  });
});
