/**
 * JSON Pointer (RFC 6901) reads, for the "where is it" parts of a backend map. A standard rather
 * than a path language of our own: operators may already know it, editors and validators
 * understand it, and it has exactly one meaning for keys holding dots or slashes.
 */

export type Pointer = readonly string[];

export function parsePointer(text: string): Pointer {
  if (text === '') return [];
  if (!text.startsWith('/')) throw new Error(`"${text}" is not a JSON Pointer: it must be empty or start with /`);
  return text
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function readPointer(value: unknown, pointer: Pointer): unknown {
  let current = value;
  for (const token of pointer) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return current;
}

/** Sets the member the pointer names, in place; the pointer's parents must exist. */
export function writePointer(root: unknown, pointer: Pointer, value: unknown): unknown {
  if (pointer.length === 0) return value;
  const parent = readPointer(root, pointer.slice(0, -1));
  if (typeof parent === 'object' && parent !== null)
    (parent as Record<string, unknown>)[pointer[pointer.length - 1]!] = value;
  return root;
}

export function formatPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${String(t).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
