import { describe, expect, it } from 'vitest';
import {
  APP_VERSIONS,
  DISCOVER_ENTRIES,
  VALIDATION_MESSAGES_ZH,
  type ValidationCode,
} from '../../server/contract/index.js';
import en from '../../web/i18n/resources/en.js';
import zh from '../../web/i18n/resources/zh.js';
import es from '../../web/i18n/resources/es.js';
import ja from '../../web/i18n/resources/ja.js';
import { VALIDATION_KEYS, validationMessage } from '../../web/engine/shared/labels.js';
import { checkValue, draftFromRecord, recordFromDraft, serverFieldErrors } from '../../web/engine/form/form-values.js';
import type { LabelKey, PluralKey } from '../../web/i18n/resources/index.js';

const translator = (messages: Record<string, string>) => (key: LabelKey | PluralKey) => messages[key] ?? key;
const codes = Object.keys(VALIDATION_MESSAGES_ZH) as ValidationCode[];

describe('validation messages', () => {
  it('uses the backend wording in Chinese exactly', () => {
    // But for a rule between fields: the form names the other field, where the backend cannot.
    for (const code of codes.filter((c) => c !== 'exceedsField'))
      expect(validationMessage(translator(zh), code)).toBe(VALIDATION_MESSAGES_ZH[code]);
    expect(zh[VALIDATION_KEYS.exceedsField]).toBe('不能大于{{other}}');
    expect(validationMessage(translator(zh), 'linkFormat')).toBe('链接格式错误');
    expect(validationMessage(translator(zh), 'downloadLinkEmpty')).toBe('下载链接不能为空');
  });

  it('has a message for every code in every language', () => {
    for (const messages of [en, zh, es, ja]) {
      for (const code of codes) expect(messages[VALIDATION_KEYS[code]], code).toBeTruthy();
    }
    expect(validationMessage(translator(en), 'linkFormat')).toBe('Link format error');
  });

  it('turns a bad link into linkFormat and an empty required download link into downloadLinkEmpty', () => {
    const fields = APP_VERSIONS.fields.filter((f) => !('readOnly' in f));
    const base = draftFromRecord(fields, {
      platform: 'android',
      version: '1.0.0',
      buildNumber: 1,
      publishTime: '2024-05-01T10:00:00Z',
    });
    expect(recordFromDraft(fields, { ...base, downloadUrl: '' }).errors).toEqual({ downloadUrl: 'downloadLinkEmpty' });
    expect(recordFromDraft(fields, { ...base, downloadUrl: 'example.com/app.apk' }).errors).toEqual({
      downloadUrl: 'linkFormat',
    });
    // The mirror link is optional: empty passes, a malformed one does not.
    const ok = { ...base, downloadUrl: 'https://dl.example.com/app.apk' };
    expect(recordFromDraft(fields, ok).errors).toEqual({});
    expect(recordFromDraft(fields, { ...ok, mirrorUrl: 'ftp:/broken' }).errors).toEqual({ mirrorUrl: 'linkFormat' });
  });

  it('trims a link before checking it', () => {
    const fields = DISCOVER_ENTRIES.fields.filter((f) => !('readOnly' in f));
    const out = recordFromDraft(fields, {
      ...draftFromRecord(fields),
      title: 'News',
      url: '  https://news.example.com  ',
    });
    expect(out.errors).toEqual({});
    expect(out.values.url).toBe('https://news.example.com');
  });

  it('takes a switch that is off as a value, not as missing', () => {
    expect(checkValue({ key: 'enabled', kind: 'switch', required: true }, false)).toBeNull();
  });

  it('marks the fields a refusal names, ignoring unknown fields and codes', () => {
    const fields = APP_VERSIONS.fields;
    expect(
      serverFieldErrors(
        { field: 'downloadUrl', errors: { downloadUrl: 'linkFormat', nope: 'required', version: 'bogus' } },
        fields,
      ),
    ).toEqual({
      downloadUrl: 'linkFormat',
    });
    expect(serverFieldErrors(undefined, fields)).toEqual({});
  });
});
