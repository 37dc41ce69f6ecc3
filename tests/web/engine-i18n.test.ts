import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../server/contract/index.js';
import en from '../../web/i18n/resources/en.js';
import zh from '../../web/i18n/resources/zh.js';
import es from '../../web/i18n/resources/es.js';
import ja from '../../web/i18n/resources/ja.js';
import { actionLabel, fieldKey, fieldLabel, resourceTitle } from '../../web/engine/shared/labels.js';
import { labelKeysOf } from '../../web/engine/shared/label-keys.js';
import type { LabelT } from '../../web/i18n/resources/index.js';
import { humanise } from '../../web/lib/humanise.js';
import { ROW_ANNOTATIONS } from '../../web/screens/views.js';

/** Columns screens fill from elsewhere than the backend (who reviewed a withdrawal): labelled like fields. */
const ANNOTATION_LABELS = Object.values(ROW_ANNOTATIONS).map((a) => fieldKey(a.field.key));

const LANGS: Record<string, Record<string, string>> = { en, zh, es, ja };

/** Every label a resource's screen shows, built with the same key functions the engine uses. */
const labelsOf = labelKeysOf;

describe('screen labels', () => {
  for (const [lang, messages] of Object.entries(LANGS)) {
    // A label left out is shown humanised (see below), so a new screen works before it is translated;
    // one written in any language must then be written in all (the next test).
    it(`${lang} writes no empty label`, () => {
      const empty = [...RESOURCES.flatMap(labelsOf), ...ANNOTATION_LABELS].filter(
        (k) => k in messages && !messages[k]?.trim(),
      );
      expect(empty).toEqual([]);
    });
    it(`${lang} has exactly the keys of every other language`, () => {
      const all = new Set(Object.values(LANGS).flatMap((m) => Object.keys(m)));
      expect([...all].filter((k) => !(k in messages))).toEqual([]);
    });
    it(`${lang} keeps the interpolation variables of English`, () => {
      const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      const wrong = Object.keys(en).filter(
        (k) => JSON.stringify(vars(messages[k] ?? '')) !== JSON.stringify(vars((en as Record<string, string>)[k]!)),
      );
      expect(wrong).toEqual([]);
    });
  }

  it('shows a resource title, field or action nobody labelled as its humanised key', () => {
    const t = ((key: string) => key) as unknown as LabelT;
    expect(fieldLabel(t, 'maxCount')).toBe('Max count');
    expect(fieldLabel(t, 'window_seconds')).toBe('Window seconds');
    expect(resourceTitle(t, 'frequencyLimitsOfTheFuture')).toBe('Frequency limits of the future');
    expect(actionLabel(t, 'forceLogout')).toBe('Force logout');
    expect(humanise('ipURLList')).toBe('Ip URL list');
    expect(humanise('42')).toBe('42');
  });

  it('has no label nobody uses among fields, options and actions', () => {
    const used = new Set([...RESOURCES.flatMap(labelsOf), ...ANNOTATION_LABELS]);
    const unused = Object.keys(en).filter((k) => /^(field|option|action|resource)\./.test(k) && !used.has(k));
    expect(unused).toEqual([]);
  });
});

describe("the audit trail's own actions", () => {
  it("names outsiders' counted login attempts in every language, never by a humanised key", async () => {
    const { auditActionText } = await import('../../web/engine/record/audit-wording.js');
    for (const [lang, messages] of Object.entries(LANGS)) {
      const t = ((key: string) => messages[key] ?? key) as unknown as LabelT;
      const text = auditActionText(t, { kind: 'login', action: 'loginAttempts', path: '/manage/logIn' });
      expect(text, lang).toBe(messages['audit.action.loginAttempts']);
    }
  });
});
