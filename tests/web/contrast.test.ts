import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accessibleShade, contrast, parseHex, primaryShades, toHex } from '../../web/lib/contrast.js';
import { DEFAULT_SHADES, DEFAULT_THEME } from '../../web/lib/settings.js';

const rgb = (hex: string) => parseHex(hex)!;

describe('contrast', () => {
  it('matches the WCAG figures for known pairs', () => {
    expect(contrast(rgb('#ffffff'), rgb('#000000'))).toBeCloseTo(21, 5);
    expect(contrast(rgb('#409eff'), rgb('#ffffff'))).toBeCloseTo(2.78, 2);
    expect(contrast(rgb('#767676'), rgb('#ffffff'))).toBeCloseTo(4.54, 2);
  });

  it('reads #rgb and #rrggbb, refuses the rest', () => {
    expect(parseHex('#fff')).toEqual([255, 255, 255]);
    expect(toHex(rgb('#409EFF'))).toBe('#409eff');
    expect(parseHex('blue')).toBeNull();
    expect(parseHex('#12345')).toBeNull();
  });

  it('darkens the default blue until white text and white surfaces pass 4.5:1, and keeps a passing colour', () => {
    const { primary, onPrimary } = primaryShades('#409EFF', 'light');
    expect(onPrimary).toBe('#ffffff');
    expect(contrast(rgb(primary), rgb('#ffffff'))).toBeGreaterThanOrEqual(4.5);
    expect(contrast(rgb(primary), rgb('#f8fafc'))).toBeGreaterThanOrEqual(4.5);
    // The nearest passing shade, not black.
    expect(contrast(rgb(primary), rgb('#ffffff'))).toBeLessThan(5.5);
    expect(accessibleShade(rgb('#1d4ed8'), rgb('#ffffff'))).toEqual(rgb('#1d4ed8'));
  });

  it('lightens for the dark scheme and puts dark text on the fill', () => {
    const { primary, onPrimary } = primaryShades('#409EFF', 'dark');
    expect(contrast(rgb(primary), rgb('#1e293b'))).toBeGreaterThanOrEqual(4.5);
    expect(contrast(rgb(primary), rgb(onPrimary))).toBeGreaterThanOrEqual(4.5);
    expect(onPrimary).toBe('#0f172a');
  });

  it('finds a passing pair for any colour an administrator picks, in both schemes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffff }),
        fc.constantFrom('light' as const, 'dark' as const),
        (n, scheme) => {
          const { primary, onPrimary } = primaryShades(`#${n.toString(16).padStart(6, '0')}`, scheme);
          const surface = scheme === 'dark' ? rgb('#1e293b') : rgb('#f1f5f9');
          expect(contrast(rgb(primary), surface)).toBeGreaterThanOrEqual(4.5);
          expect(contrast(rgb(primary), rgb(onPrimary))).toBeGreaterThanOrEqual(4.5);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the default theme colour', () => {
  it('draws with the shades the arithmetic gives it, written out so the login page loads no arithmetic', () => {
    expect(DEFAULT_SHADES.light).toEqual(primaryShades(DEFAULT_THEME, 'light'));
    expect(DEFAULT_SHADES.dark).toEqual(primaryShades(DEFAULT_THEME, 'dark'));
  });
});
