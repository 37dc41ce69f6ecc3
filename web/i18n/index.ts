import { useCallback } from 'react';
import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import en, { type MessageKey as FrameMessageKey } from './en.js';
import type { PageMessageKey, PageMessages } from './pages/en.js';
import type { Language } from '../lib/language.js';
import { lazyBundles } from './lazy-bundles.js';

/** The frame's messages (in the entry) and the pages' (fetched with the first page that needs them). */
export type MessageKey = FrameMessageKey | PageMessageKey;
/**
 * The title of a screen whose route names none: its resource's label, one of the screens' labels
 * (fetched after the login), read as the humanised id until it is written or while it loads.
 */
export type ScreenTitleKey = `resource.${string}`;
/** What a route's title, a menu entry or a crumb names: a message, or a screen's resource label. */
export type TitleKey = MessageKey | ScreenTitleKey;

// English frame messages ship in the entry chunk; the other languages are fetched when chosen,
// and every language's page messages with the first page that needs them, which keeps the login
// page inside its size budget.
const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<{ default: Record<string, string> }>> = {
  zh: () => import('./zh.js'),
  es: () => import('./es.js'),
  ja: () => import('./ja.js'),
};

const PAGE_LOADERS: Record<Language, () => Promise<{ default: PageMessages }>> = {
  en: () => import('./pages/en.js'),
  zh: () => import('./pages/zh.js'),
  es: () => import('./pages/es.js'),
  ja: () => import('./pages/ja.js'),
};
const pageMessages = lazyBundles(PAGE_LOADERS);
/** Once a page has needed its messages, a language switch fetches the new language's before switching. */
let pagesWanted = false;

/** Resolves once the current language's page messages (and English's) are in. */
export function pageMessagesReady(): Promise<void> {
  pagesWanted = true;
  return pageMessages.ready();
}

/** Loads a language's messages (once) and makes it the active one. */
export async function activateLanguage(language: Language): Promise<void> {
  if (language !== 'en' && !i18next.hasResourceBundle(language, 'translation')) {
    try {
      const messages = (await LOADERS[language]()).default;
      i18next.addResourceBundle(language, 'translation', messages, true, true);
    } catch {
      // Offline chunk load failure: stay readable in English rather than showing keys.
      return;
    }
  }
  if (pagesWanted) await pageMessages.load(language);
  if (i18next.language !== language) await i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

export function initI18n(): typeof i18next {
  void i18next.use(initReactI18next).init({
    resources: { en: { translation: en } },
    lng: 'en',
    fallbackLng: 'en',
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    // Redrawn when the screens' labels arrive, so a screen title's stand-in gives way to its label
    // (i18n/resources/index.ts, loaded behind the login, sets the stand-in).
    react: { bindI18nStore: 'added' },
    // Resources are bundled, so init is synchronous and the first render is already translated.
    initAsync: false,
  });
  return i18next;
}

// i18next's own key typing is bypassed: MessageKey already pins the keys.
type Loose = (key: string, vars?: object) => string;

export type TFunction = (key: TitleKey, vars?: Record<string, string | number>) => string;

/** Translation outside React (toasts, titles). */
export const t: TFunction = (key, vars) => (i18next.t as unknown as Loose)(key, vars);

/** Typed translation hook; re-renders on language change. */
export function useT(): TFunction {
  const { t: tr } = useTranslation();
  // Stable until the language changes, so memoised values that depend on it stay cached.
  return useCallback<TFunction>((key, vars) => (tr as unknown as Loose)(key, vars), [tr]);
}
