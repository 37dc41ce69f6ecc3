/**
 * Colour contrast as WCAG 2 defines it, and the shades of an administrator's theme colour that
 * meet it. The theme colour is whatever was picked in the settings drawer (a light blue by
 * default); shown as it is, white text on it or it as text on white often falls below the 4.5:1
 * that normal-size text needs. So the console draws with the nearest shade that passes, on the
 * surfaces of the current scheme, and picks the text colour that goes on top of it.
 */

export type Rgb = readonly [number, number, number];

/** `#rrggbb` (or `#rgb`) as 0-255 channels; null for anything else. */
export function parseHex(hex: string): Rgb | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

export function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b]
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** Relative luminance (WCAG 2.x). */
export function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Contrast ratio between two colours, 1 to 21. */
export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

function mix(from: Rgb, to: Rgb, amount: number): Rgb {
  return [0, 1, 2].map((i) => from[i]! + (to[i]! - from[i]!) * amount) as unknown as Rgb;
}

/**
 * The shade of `colour` nearest to it that reaches `minRatio` against `surface`: mixed toward
 * black on a light surface, toward white on a dark one, in 2 % steps. A colour that already passes
 * comes back unchanged.
 */
export function accessibleShade(colour: Rgb, surface: Rgb, minRatio = 4.5): Rgb {
  const toward: Rgb = luminance(surface) > 0.18 ? [0, 0, 0] : [255, 255, 255];
  for (let step = 0; step <= 50; step++) {
    const shade = mix(colour, toward, step / 50).map(Math.round) as unknown as Rgb;
    if (contrast(shade, surface) >= minRatio) return shade;
  }
  return toward;
}

/** Of the two text colours, the one that reads better on `fill`. */
export function textOn(fill: Rgb, light: Rgb, dark: Rgb): Rgb {
  return contrast(fill, light) >= contrast(fill, dark) ? light : dark;
}

export interface PrimaryShades {
  /** The shade drawn for buttons, links, focus rings and selected states. */
  primary: string;
  /** Text on a primary fill. */
  onPrimary: string;
}

/** The scheme's surfaces that primary text and rings must stand out from. */
const LIGHT_SURFACE: Rgb = [0xf1, 0xf5, 0xf9]; // the palest grey a primary link sits on
const DARK_SURFACE: Rgb = [0x1e, 0x29, 0x3b]; // the lightest dark surface a primary link sits on
const WHITE: Rgb = [255, 255, 255];
const INK: Rgb = [0x0f, 0x17, 0x2a];

/** The shades of a theme colour for the light or the dark scheme. */
export function primaryShades(themeColour: string, scheme: 'light' | 'dark'): PrimaryShades {
  const picked = parseHex(themeColour) ?? ([0x40, 0x9e, 0xff] as const);
  const shade = accessibleShade(picked, scheme === 'dark' ? DARK_SURFACE : LIGHT_SURFACE);
  return { primary: toHex(shade), onPrimary: toHex(textOn(shade, WHITE, INK)) };
}
