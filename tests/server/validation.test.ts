import { describe, expect, it } from 'vitest';
import {
  RUNNER_LINK_SCHEMES,
  SOCKET_SCHEMES,
  isIpOrCidr,
  isLink,
  validateField,
  validateRecord,
  VALIDATION_MESSAGES_ZH,
  type FieldDef,
} from '../../server/contract/index.js';

describe('shared validation', () => {
  it.each(['https://example.com/app.apk', 'http://a', 'HTTPS://Example.com/x?y=1#z'])('accepts the link %s', (v) => {
    expect(isLink(v)).toBe(true);
  });
  it.each([
    'example.com',
    'https:/x',
    '://x',
    'javascript:alert(1)',
    'https:// space',
    '',
    'ftp://files.example/x',
    'file:///etc/passwd',
    'wss://im.example.com/ws',
    'https:///path',
  ])('refuses the link %s', (v) => {
    expect(isLink(v)).toBe(false);
  });
  it('takes WebSocket addresses only where it is asked to', () => {
    expect(isLink('wss://im.example.com/ws', SOCKET_SCHEMES)).toBe(true);
    expect(isLink('https://im.example.com/ws', SOCKET_SCHEMES)).toBe(false);
    expect(RUNNER_LINK_SCHEMES.websocketUrl).toEqual(SOCKET_SCHEMES);
  });

  it('holds administrator accounts and passwords to their policy', () => {
    const account: FieldDef = { key: 'account', kind: 'text', required: true, maxLength: 32, policy: 'account' };
    const password: FieldDef = { key: 'password', kind: 'password', required: true, policy: 'password' };
    for (const ok of ['ops_lead', 'a.b-c', 'abc', 'x'.repeat(32)]) expect(validateField(account, ok)).toBeNull();
    for (const bad of ['ab', 'Ops', 'ops lead', 'ops@lead', '运维'])
      expect(validateField(account, bad)).toBe('accountFormat');
    expect(validateField(password, 'correct-horse-7')).toBeNull();
    expect(validateField(password, 'short-1')).toBe('passwordWeak');
    expect(validateField(password, 'onlyletters-here')).toBe('passwordWeak');
    expect(validateField(password, '12345678901')).toBe('passwordWeak');
    expect(VALIDATION_MESSAGES_ZH.passwordWeak).toContain('10');
  });

  it('gives 链接格式错误 for a bad link and accepts an empty optional one', () => {
    const mirror: FieldDef = { key: 'mirrorUrl', kind: 'link' };
    expect(validateField(mirror, 'not a link')).toBe('linkFormat');
    expect(VALIDATION_MESSAGES_ZH.linkFormat).toBe('链接格式错误');
    expect(validateField(mirror, '')).toBeNull();
  });

  it('gives 下载链接不能为空 for an empty required download link', () => {
    const download: FieldDef = { key: 'downloadUrl', kind: 'link', required: true, download: true };
    expect(validateField(download, '')).toBe('downloadLinkEmpty');
    expect(VALIDATION_MESSAGES_ZH.downloadLinkEmpty).toBe('下载链接不能为空');
    // Only white space is empty too (issue 35, point 4): a required name of spaces is missing.
    expect(validateField({ key: 'name', kind: 'text', required: true }, ' ')).toBe('required');
    expect(validateField({ key: 'name', kind: 'text', required: true }, '')).toBe('required');
  });

  it.each([
    '10.0.0.1',
    '192.168.0.0/16',
    '0.0.0.0/0',
    '::1',
    '2001:db8::/32',
    'fe80::1:2:3:4',
    '::ffff:10.0.0.1',
    '1:2:3:4:5:6:7:8',
  ])('accepts the address %s', (v) => expect(isIpOrCidr(v)).toBe(true));
  it.each([
    '256.0.0.1',
    '10.0.0',
    '10.0.0.1/33',
    '2001:db8::/129',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    'abc',
    '10.0.0.1/',
    '01.2.3.4',
  ])('refuses the address %s', (v) => expect(isIpOrCidr(v)).toBe(false));

  it('checks numbers, money, options and lengths', () => {
    expect(validateField({ key: 'n', kind: 'number', min: 1, max: 10 }, 0)).toBe('tooSmall');
    expect(validateField({ key: 'n', kind: 'number', min: 1, max: 10 }, '11')).toBe('tooLarge');
    expect(validateField({ key: 'n', kind: 'number' }, 'x')).toBe('notNumber');
    expect(validateField({ key: 'm', kind: 'money' }, 10.5)).toBe('notInteger');
    expect(validateField({ key: 's', kind: 'select', options: ['a', 'b'] }, 'c')).toBe('notAnOption');
    expect(validateField({ key: 't', kind: 'text', maxLength: 3 }, 'abcd')).toBe('tooLong');
    expect(validateField({ key: 'w', kind: 'switch', required: true }, false)).toBeNull();
    expect(validateField({ key: 'w', kind: 'switch' }, 'yes')).toBe('notAnOption');
    expect(
      validateRecord(
        [
          { key: 'a', kind: 'text', required: true },
          { key: 'b', kind: 'link' },
        ],
        { a: 'x', b: 'bad' },
      ),
    ).toEqual({ b: 'linkFormat' });
  });
});

describe('a size in bytes', () => {
  const size: FieldDef = { key: 'packageSize', kind: 'bytes', min: 0 };
  it('takes a whole number of bytes, sent as a number or as plain digits', () => {
    expect(validateField(size, 58_350_123)).toBeNull();
    expect(validateField(size, '1500000')).toBeNull();
    expect(validateField(size, 0)).toBeNull();
  });
  it('refuses a fraction of a byte, a negative size and text', () => {
    expect(validateField(size, 1.5)).toBe('notInteger');
    expect(validateField(size, -1)).toBe('tooSmall');
    expect(validateField(size, '58 MB')).toBe('notNumber');
  });
});
