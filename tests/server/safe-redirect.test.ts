import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from '../../server/contract/index.js';

describe('safeRedirectPath', () => {
  it.each(['/dashboard', '/finance/OnlineRecharge?page=2', '/userpage/userset#top', '/', '/%0a'])(
    'keeps the same-origin path %s',
    (value) => {
      expect(safeRedirectPath(value)).toBe(value);
    },
  );

  it.each([
    '//evil.example',
    '/\\evil.example',
    'https://evil.example',
    'javascript:alert(1)',
    'evil.example',
    '/\t/evil.example',
    '',
    undefined,
    42,
    '/a\\b',
  ])('falls back to / for %s', (value) => {
    expect(safeRedirectPath(value)).toBe('/');
  });
});
