/**
 * A readable stand-in for a label nobody wrote yet: an identifier split into words, the first
 * capitalised (`maxCount` and `max_count` read "Max count", `ipBlacklist` "Ip blacklist"). A new
 * field or screen then shows something sensible until its translations land, rather than its raw
 * key or a failed build. Text that is not an identifier (a number, a sentence) comes back unchanged.
 */
export function humanise(key: string): string {
  // Remembered: labels are asked for per cell and per row command, and almost always exist, so
  // the stand-in is built for the same few keys again and again.
  let text = humanised.get(key);
  if (text === undefined) humanised.set(key, (text = humaniseOnce(key)));
  return text;
}

const humanised = new Map<string, string>();

function humaniseOnce(key: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)*$/.test(key)) return key;
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(' ')
    .map((word) => (/^[A-Z0-9]+$/.test(word) && word.length > 1 ? word : word.toLowerCase()));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
