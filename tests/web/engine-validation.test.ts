import { describe, expect, it } from 'vitest';
import {
  APP_VERSIONS,
  DISCOVER_ENTRIES,
  LINK_MAX_LENGTH,
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
  it("uses the backend wording in Chinese, a link's with what it needs after it", () => {
    // A link's message goes on to say what a link needs (a scheme, a length): the backend's alone does not.
    // A rule between fields names the other field, where the backend cannot.
    const said = new Set<ValidationCode>(['linkFormat', 'linkTooLong']);
    for (const code of codes.filter((c) => c !== 'exceedsField')) {
      const message = validationMessage(translator(zh), code);
      if (said.has(code)) expect(message.startsWith(VALIDATION_MESSAGES_ZH[code])).toBe(true);
      else expect(message).toBe(VALIDATION_MESSAGES_ZH[code]);
    }
    expect(zh[VALIDATION_KEYS.exceedsField]).toBe('不能大于{{other}}');
    expect(validationMessage(translator(zh), 'linkFormat')).toBe('链接格式错误，请输入以 https:// 开头的完整链接');
    expect(validationMessage(translator(zh), 'downloadLinkEmpty')).toBe('下载链接不能为空');
  });

  it('has a message for every code in every language', () => {
    for (const messages of [en, zh, es, ja]) {
      for (const code of codes) expect(messages[VALIDATION_KEYS[code]], code).toBeTruthy();
    }
    // What a link needs, in every language: the scheme, not only that the format is wrong.
    for (const messages of [en, zh, es, ja])
      expect(validationMessage(translator(messages), 'linkFormat')).toContain('https://');
    expect(validationMessage(translator(en), 'linkFormat')).toBe('Enter a full link starting with https://');
  });

  it('refuses a link longer than the contract allows as linkTooLong, and takes one at the limit', () => {
    const fields = DISCOVER_ENTRIES.fields.filter((f) => !('readOnly' in f));
    const url = (length: number) => `https://news.example.com/${'x'.repeat(length - 25)}`;
    const draft = { ...draftFromRecord(fields), title: 'News' };
    expect(recordFromDraft(fields, { ...draft, url: url(LINK_MAX_LENGTH) }).errors).toEqual({});
    expect(recordFromDraft(fields, { ...draft, url: url(LINK_MAX_LENGTH + 1) }).errors).toEqual({ url: 'linkTooLong' });
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
