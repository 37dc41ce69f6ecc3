import { useMemo } from 'react';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import type { Language } from '../../lib/language.js';
import type { LabelKey, Labels } from './en.js';
import { lazyBundles } from '../lazy-bundles.js';
import { humanise } from '../../lib/humanise.js';

export type { LabelKey, Labels };

/**
 * Screen labels ship in their own chunks, fetched with the first screen and with each language
 * the user switches to, so the login page never carries them. They join i18next's default
 * namespace under prefixes the shell does not use (engine., field., option., …).
 */
const LOADERS: Record<Language, () => Promise<{ default: Labels }>> = {
  en: () => import('./en.js'),
  zh: () => import('./zh.js'),
  es: () => import('./es.js'),
  ja: () => import('./ja.js'),
};

/** Bumped when a language's labels arrive, so screens drawn with the fallback redraw. */
const labelsVersion = signal(0);
const labels = lazyBundles(LOADERS, () => labelsVersion.value++);

/** Loads one language's labels once; a failed chunk load may be retried later. */
export const loadLabels = labels.load;

/** Resolves once the current language's labels (and English's) are in. */
export const labelsReady = labels.ready;

let listening = false;
function followLanguage(): void {
  if (listening) return;
  listening = true;
  i18next.on('languageChanged', (lng) => void loadLabels(lng));
}

/**
 * From the frame's first drawing after the login: a screen whose route names no title is titled
 * by its resource's label (`resource.<id>`), so the menu, tabs and breadcrumb need the labels of
 * the current language, and of the next one chosen. Until they arrive the title reads humanised.
 */
export function loadScreenTitles(): void {
  followLanguage();
  void labelsReady();
}

// Set as this module loads (with the frame, behind the login), so the login page's first load
// carries none of it: a screen titled by its resource's label reads as the humanised id until the
// label is written, and while the labels load ("articleDrafts": "Article drafts"). Other missing
// keys stay visible as keys.
const SCREEN_TITLE = 'resource.';
i18next.options.parseMissingKeyHandler = (key: string) =>
  key.startsWith(SCREEN_TITLE) ? humanise(key.slice(SCREEN_TITLE.length)) : key;

/** A plural label by its base name: i18next picks `_one`, `_other` (and the like) from `count`. */
export type PluralKey = { [K in LabelKey]: K extends `${infer Base}_other` ? Base : never }[LabelKey];
export type LabelT = (key: LabelKey | PluralKey, vars?: Record<string, string | number>) => string;
type Loose = (key: string, vars?: object) => string;

/** Translation of screen labels; re-renders when a language's labels arrive. */
export function useLabelT(): LabelT {
  useSignals();
  followLanguage();
  const { t } = useTranslation();
  const version = labelsVersion.value;
  // A list page asks the same few hundred labels for each of its rows: a label without variables
  // is looked up once per language and labels version, not once per cell.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new function once labels arrive, so memoised labels recompute
  return useMemo<LabelT>(() => remembering((key, vars) => (t as unknown as Loose)(key, vars)), [t, version]);
}

/** Stand-ins for variables in a remembered template: private-use characters no label contains. */
const OPEN = '\ue000';
const CLOSE = '\ue001';
const SLOT = /\ue000([A-Za-z0-9_]+)\ue001/g;

function remembering(translate: LabelT): LabelT {
  const plain = new Map<string, string>();
  const templates = new Map<string, string>();
  const remembered: LabelT = (key, vars) => {
    if (vars) {
      // A count picks a plural form, so only labels without one are remembered as templates
      // ("Select row {{id}}" once, then its slot filled per row).
      if ('count' in vars) return translate(key, vars);
      const names = Object.keys(vars);
      const id = `${key}\u0000${names.join(',')}`;
      let template = templates.get(id);
      if (template === undefined) {
        template = translate(key, Object.fromEntries(names.map((n) => [n, `${OPEN}${n}${CLOSE}`])));
        templates.set(id, template);
      }
      return template.replace(SLOT, (_, name: string) => String(vars[name]));
    }
    let text = plain.get(key);
    if (text === undefined) {
      text = translate(key);
      plain.set(key, text);
    }
    return text;
  };
  knownKeys.set(remembered, new Map());
  return remembered;
}

/**
 * Per remembering translate function (one per language and labels version): whether each
 * run-time key has a label, asked for every cell of a page. Others (`labelT`) ask each time.
 */
const knownKeys = new WeakMap<LabelT, Map<string, boolean>>();

/** Outside React (CSV headers built in a callback). */
export const labelT: LabelT = (key, vars) => (i18next.t as unknown as Loose)(key, vars);

/** A label for a key built at run time (a field of a resource); falls back to the raw name. */
export function dynamicLabel(t: LabelT, key: string, fallback: string): string {
  const known = knownKeys.get(t);
  if (!known) return i18next.exists(key) ? t(key as LabelKey) : fallback;
  let exists = known.get(key);
  if (exists === undefined) known.set(key, (exists = i18next.exists(key)));
  return exists ? t(key as LabelKey) : fallback;
}
