/**
 * How long a text is as its reader sees it: user-perceived characters (grapheme clusters), not
 * UTF-16 units. A family emoji is one character here though it is eleven units, so a limit of 32
 * means 32 of what the administrator typed and sees, on the form, at the gateway and in the sandbox.
 */

let segmenter: Intl.Segmenter | null = null;

/** The number of grapheme clusters in `text`. */
export function graphemeCount(text: string): number {
  // Every cluster has at least one unit, and ASCII-only text has one cluster per unit but for CR LF.
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let count = 0;
  for (const _ of segmenter.segment(text)) count++;
  return count;
}
