export const LANGUAGES = ['en', 'zh', 'es', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  zh: '中文',
  es: 'Español',
  ja: '日本語',
};

const LOCALES: Record<Language, string> = { en: 'en-US', zh: 'zh-CN', es: 'es-ES', ja: 'ja-JP' };

/** The Intl locale of a language, for numbers and dates. */
export function localeOf(lang: Language): string {
  return LOCALES[lang];
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** A browser tag such as "zh-CN" or "es_419" counts for its primary language. */
function primary(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/** The saved language, else the first supported browser language, else English. */
export function pickLanguage(saved: string | null | undefined, browser: readonly string[]): Language {
  if (isLanguage(saved)) return saved;
  for (const tag of browser) {
    const lang = primary(tag);
    if (isLanguage(lang)) return lang;
  }
  return 'en';
}
