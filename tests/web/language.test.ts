import { describe, expect, it } from 'vitest';
import { pickLanguage } from '../../web/lib/language.js';

describe('pickLanguage', () => {
  it('prefers a saved supported language', () => {
    expect(pickLanguage('ja', ['zh-CN'])).toBe('ja');
  });
  it('ignores a saved unsupported value and uses the browser language', () => {
    expect(pickLanguage('fr', ['zh-CN', 'en'])).toBe('zh');
    expect(pickLanguage(null, ['es-419'])).toBe('es');
    expect(pickLanguage(undefined, ['ja_JP'])).toBe('ja');
  });
  it('takes the first supported browser language', () => {
    expect(pickLanguage(null, ['fr-FR', 'de', 'es-ES', 'zh'])).toBe('es');
  });
  it('falls back to English', () => {
    expect(pickLanguage(null, [])).toBe('en');
    expect(pickLanguage('', ['fr', 'de'])).toBe('en');
  });
});
