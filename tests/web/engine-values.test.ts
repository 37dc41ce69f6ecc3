import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_VERSIONS, OPERATION_LOG, type FieldDef } from '../../server/contract/index.js';
import en from '../../web/i18n/resources/en.js';
import es from '../../web/i18n/resources/es.js';
import ja from '../../web/i18n/resources/ja.js';
import zh from '../../web/i18n/resources/zh.js';
import { labelT } from '../../web/i18n/resources/index.js';
import { exportColumns } from '../../web/engine/shared/export-csv.js';
import { csvValue } from '../../server/contract/csv.js';
import { resultText } from '../../web/engine/operation/result-view.js';
import { isWholeToken, valueText } from '../../web/engine/shared/value-cell.js';
import type { Language } from '../../web/lib/language.js';
import { language } from '../../web/lib/settings.js';

/** Table and detail values in the chosen language; the CSV export stays machine-readable. */

const field = (key: string): FieldDef => {
  const found = [...APP_VERSIONS.fields, ...OPERATION_LOG.fields].find((f) => f.key === key);
  if (!found) throw new Error(key);
  return found;
};
const moment = new Date(2026, 4, 27, 23, 59, 1);

async function use(lang: Language) {
  language.value = lang;
  await i18next.changeLanguage(lang);
}

beforeAll(async () => {
  await i18next.init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: en }, zh: { translation: zh }, es: { translation: es }, ja: { translation: ja } },
  });
});

describe('values in each language', () => {
  const cases: [Language, string, string, string, string][] = [
    ['en', '05/27/2026 23:59:01', '58.4 MB', 'Users', 'Authentication'],
    ['zh', '2026/05/27 23:59:01', '58.4 MB', '用户', '认证'],
    ['ja', '2026/05/27 23:59:01', '58.4 MB', ja['resource.users'], '認証'],
    ['es', '27/05/2026 23:59:01', '58,4 MB', es['resource.users'], 'Autenticación'],
  ];
  for (const [lang, time, size, users, auth] of cases) {
    it(`writes times, sizes and modules in ${lang}`, async () => {
      await use(lang);
      expect(valueText(labelT, field('publishTime'), moment.toISOString())).toBe(time);
      expect(valueText(labelT, field('packageSize'), 58_350_123)).toBe(size);
      expect(valueText(labelT, field('module'), 'users')).toBe(users);
      expect(valueText(labelT, field('module'), 'auth')).toBe(auth);
      // A module a newer backend adds shows its raw key rather than nothing.
      expect(valueText(labelT, field('module'), 'walletAudit')).toBe('walletAudit');
    });
  }
});

describe('the CSV export', () => {
  it('keeps ISO 8601 times and whole bytes whatever the language', async () => {
    await use('es');
    // The screen names the columns in the reader's language; the gateway writes the values.
    const columns = exportColumns(labelT, [field('publishTime'), field('packageSize'), field('module')]);
    const row: Record<string, unknown> = {
      publishTime: moment.toISOString(),
      packageSize: 58_350_123,
      module: 'users',
    };
    expect(columns.map((c) => c.label)).toEqual([es['field.publishTime'], es['field.packageSize'], es['field.module']]);
    expect(columns.map((c) => csvValue(c, row[c.key]))).toEqual([
      moment.toISOString(),
      '58350123',
      es['resource.users'],
    ]);
  });
});

describe('an action answer', () => {
  it('shows a clean-up preview size and oldest time for people, counts as they are', async () => {
    await use('es');
    expect(resultText('bytes', 2_500_000)).toBe('2,5 MB');
    expect(resultText('oldest', moment.toISOString())).toBe('27/05/2026 23:59:01');
    expect(resultText('count', 12345)).toBe('12345');
    expect(resultText('messageId', 'msg_2026-05-27')).toBe('msg_2026-05-27');
  });
});

describe('whole tokens', () => {
  it('keeps phone numbers, accounts and addresses whole, and lets prose and long runs wrap', () => {
    expect(isWholeToken('+8613800138000')).toBe(true);
    expect(isWholeToken('support_tanaka')).toBe(true);
    expect(isWholeToken('203.0.113.24')).toBe(true);
    expect(isWholeToken('Signed in')).toBe(false);
    expect(isWholeToken('发广告')).toBe(false);
    expect(isWholeToken('a'.repeat(25))).toBe(false);
  });
});
