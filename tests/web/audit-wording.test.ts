import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { USERS } from '../../server/contract/index.js';
import type { AuditEntry, AuditValue } from '../../server/contract/audit.js';
import en from '../../web/i18n/resources/en.js';
import es from '../../web/i18n/resources/es.js';
import ja from '../../web/i18n/resources/ja.js';
import zh from '../../web/i18n/resources/zh.js';
import type { LabelT } from '../../web/i18n/resources/index.js';
import { auditActionNames, auditActionText, auditTargets, changeTexts } from '../../web/engine/record/audit-wording.js';

/** How audit entries read in each language: words for what happened, never a path, a bare code or a missing value. */

const LANGS = { en, zh, es, ja } as const;
const t: LabelT = (key, vars) => i18next.t(key, vars as Record<string, unknown>) as string;

beforeAll(async () => {
  await i18next.init({
    lng: 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    resources: Object.fromEntries(Object.entries(LANGS).map(([lng, m]) => [lng, { translation: m }])),
  });
});

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  seq: 1,
  id: 'e',
  time: '2026-12-01T10:00:00.000Z',
  prev: '0'.repeat(64),
  hash: '1'.repeat(64),
  kind: 'change',
  actor: { userId: '1', account: 'admin' },
  requestId: null,
  ip: null,
  method: 'POST',
  path: '/manage/x',
  resource: null,
  call: null,
  action: null,
  targets: [],
  reason: null,
  outcome: { status: 200, code: 200 },
  ...over,
});

describe('the values a change shows', () => {
  it('reads a ban as Normal -> Banned, in the language of the reader', async () => {
    await i18next.changeLanguage('en');
    expect(changeTexts(t, USERS, 'status', { status: 'normal' }, { status: 'banned' })).toEqual({
      before: 'Normal',
      after: 'Banned',
    });
    for (const lng of ['zh', 'ja', 'es']) {
      await i18next.changeLanguage(lng);
      const texts = changeTexts(t, USERS, 'status', { status: 'normal' }, { status: 'banned' });
      expect(texts.before).toBe(LANGS[lng as keyof typeof LANGS]['option.status.normal']);
      expect(texts.after).toBe(LANGS[lng as keyof typeof LANGS]['option.status.banned']);
    }
    await i18next.changeLanguage('en');
  });

  it('says "(empty)" for an empty value before, whatever form the emptiness takes', async () => {
    await i18next.changeLanguage('en');
    for (const before of [{ nickname: '' }, { nickname: null }, { nickname: '   ' }, {}] as Record<
      string,
      AuditValue
    >[]) {
      expect(changeTexts(t, USERS, 'nickname', before, { nickname: 'wei' })).toEqual({
        before: '(empty)',
        after: 'wei',
      });
    }
    // Not read at all is another thing, and says so; a create has no before side.
    expect(changeTexts(t, USERS, 'nickname', null, { nickname: 'wei' }).before).toBe('(not known)');
    expect(changeTexts(t, USERS, 'nickname', undefined, { nickname: 'wei' })).toEqual({ after: 'wei' });
    await i18next.changeLanguage('zh');
    expect(changeTexts(t, USERS, 'nickname', { nickname: '' }, { nickname: 'wei' }).before).toBe(zh['history.blank']);
    await i18next.changeLanguage('en');
  });
});

describe('what an entry did', () => {
  it('reads a held settings save as a settings save in every language, never as its path', async () => {
    const held = entry({
      kind: 'hold',
      resource: 'withdrawalConfig',
      action: null,
      path: '/manage/finance/cashConfig/config',
    });
    for (const lng of Object.keys(LANGS)) {
      await i18next.changeLanguage(lng);
      const text = auditActionText(t, held);
      const messages = LANGS[lng as keyof typeof LANGS];
      expect(text).not.toContain('/manage');
      expect(text).toBe(`${messages['audit.kind.hold']}: ${messages['audit.action.saveConfig']}`);
    }
    await i18next.changeLanguage('en');
    expect(auditActionText(t, { ...held, action: 'saveConfig' })).toBe('Held for a second approval: Settings saved');
  });

  it('reads a refused login as a failed login, not as logged in', async () => {
    const failed = entry({ kind: 'login', action: 'login', outcome: { status: 200, code: 1001 } });
    await i18next.changeLanguage('en');
    expect(auditActionText(t, failed)).toBe('Failed login');
    expect(auditActionText(t, { ...failed, outcome: { status: 200, code: 200 } })).toBe('Logged in');
    for (const lng of ['zh', 'ja', 'es']) {
      await i18next.changeLanguage(lng);
      const messages = LANGS[lng as keyof typeof LANGS];
      expect(auditActionText(t, failed)).toBe(messages['audit.action.loginFailed']);
      expect(auditActionText(t, failed)).not.toBe(messages['audit.action.login']);
    }
    await i18next.changeLanguage('en');
  });

  it('names each record by the name the gateway read, and by its id where it read none', () => {
    expect(auditTargets(entry({ targets: ['102732', '5'], names: { '102732': 'wei1805' } }))).toEqual([
      { id: '102732', name: 'wei1805' },
      { id: '5', name: null },
    ]);
  });

  it('offers every action once in the trail filter, its own and the screens’', () => {
    const names = auditActionNames();
    expect(new Set(names).size).toBe(names.length);
    for (const name of ['ban', 'unban', 'approve', 'saveConfig', 'login', 'create']) expect(names).toContain(name);
  });
});
