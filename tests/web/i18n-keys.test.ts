import { describe, expect, it } from 'vitest';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import es from '../../web/i18n/es.js';
import ja from '../../web/i18n/ja.js';
import enPages from '../../web/i18n/pages/en.js';
import zhPages from '../../web/i18n/pages/zh.js';
import esPages from '../../web/i18n/pages/es.js';
import jaPages from '../../web/i18n/pages/ja.js';
import { LEAF_ROUTES, GROUP_ROUTES } from '../../web/app/routes.js';

// The frame's messages and the pages' (loaded later) together: one language's whole set.
const LANGS: Record<string, Record<string, string>> = {
  en: { ...en, ...enPages },
  zh: { ...zh, ...zhPages },
  es: { ...es, ...esPages },
  ja: { ...ja, ...jaPages },
};
const EN = LANGS.en!;

describe('i18n key parity', () => {
  const all = new Set(Object.values(LANGS).flatMap((m) => Object.keys(m)));
  for (const [lang, messages] of Object.entries(LANGS)) {
    it(`${lang} has every key any language has`, () => {
      const missing = [...all].filter((k) => !(k in messages));
      expect(missing).toEqual([]);
    });
    it(`${lang} has no empty message`, () => {
      expect(
        Object.entries(messages)
          .filter(([, v]) => v.trim() === '')
          .map(([k]) => k),
      ).toEqual([]);
    });
  }
  it('keeps interpolation variables the same in every language', () => {
    const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(EN)) {
      for (const [lang, messages] of Object.entries(LANGS)) {
        expect(vars(messages[key]!), `${lang}:${key}`).toEqual(vars(EN[key]!));
      }
    }
  });
  it('keeps each key in one place: the frame or the pages', () => {
    expect(Object.keys(enPages).filter((k) => k in en)).toEqual([]);
  });
  it('has a title for every route', () => {
    for (const r of [...LEAF_ROUTES, ...GROUP_ROUTES]) expect(en).toHaveProperty(r.meta.title);
  });
});
