import i18next from 'i18next';
import type { Language } from '../lib/language.js';

/**
 * Messages fetched after the login page, one chunk a language, joined into i18next's default
 * namespace when they arrive. English is the fallback of every other language, so it is always
 * loaded too. `ready()` hands out the same promise per language, because React's `use` needs a
 * stable one to suspend on; a failed chunk load is forgotten, so the next ask tries again.
 */
export function lazyBundles(
  loaders: Record<Language, () => Promise<{ default: object }>>,
  onLoaded: () => void = () => {},
) {
  const loading = new Map<string, Promise<void>>();
  const ready = new Map<string, Promise<void>>();

  const load = (lang: string): Promise<void> => {
    if (!(lang in loaders)) return Promise.resolve();
    let pending = loading.get(lang);
    if (!pending) {
      pending = loaders[lang as Language]()
        .then((m) => {
          i18next.addResourceBundle(lang, 'translation', m.default, true, false);
          onLoaded();
        })
        .catch(() => void loading.delete(lang));
      loading.set(lang, pending);
    }
    return pending;
  };

  return {
    load,
    /** The current language's bundle and English's are in. */
    ready(): Promise<void> {
      const lang = i18next.language || 'en';
      let pending = ready.get(lang);
      if (!pending) {
        pending = Promise.all([load('en'), load(lang)]).then(() => undefined);
        ready.set(lang, pending);
      }
      return pending;
    },
  };
}
