import { hexDigest } from './digest.js';
import type { HashName, Template } from './types.js';

/**
 * Request body templates: the backend's own JSON body with "{name}" placeholders, for bodies
 * nested otherwise than the console's flat parameters ({pagination: {pageNumber: "{pageNum}"}}).
 * A string that is exactly one placeholder takes the value itself, keeping its type (a number
 * stays a number, a list a list); a placeholder inside longer text is written as text. A member
 * whose placeholder has no value (not sent, or null) is left out, so an empty keyword does not
 * reach the backend as "" or null; an empty object stays, as the backend's body wrote it.
 */

const WHOLE = /^\{([^{}]+)\}$/;
const INSIDE = /\{([^{}]+)\}/g;

/** Left out of its parent: a placeholder without a value. */
const ABSENT = Symbol('absent');

export type Lookup = (name: string) => unknown;

/**
 * What a placeholder may ask of its value after a bar: `{password|md5}` sends the digest of the
 * value's text (a backend that stores md5 passwords), never the text itself.
 */
export const PLACEHOLDER_FILTERS: readonly string[] = ['md5', 'sha256', 'xml', 'local'];

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * `xml`: the text escaped for XML (a message body placed inside an XMPP stanza the map writes);
 * `local`: a JID's part before "@" (a user's or a room's name out of its address).
 */
function textFilter(filter: string, value: string): string {
  if (filter === 'xml') return value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
  return value.split('@', 1)[0]!;
}

/** A placeholder's name and filters: "password|md5" is the value of password, as md5. */
export function parsePlaceholder(spec: string): { name: string; filters: string[] } {
  const [name = '', ...filters] = spec.split('|').map((part) => part.trim());
  return { name, filters };
}

/** Every placeholder of a template, as written (for the map's checks at start). */
export function placeholdersOf(template: Template): string[] {
  if (typeof template === 'string') return [...template.matchAll(INSIDE)].map((m) => m[1]!);
  if (Array.isArray(template)) return template.flatMap(placeholdersOf);
  if (typeof template === 'object' && template !== null) return Object.values(template).flatMap(placeholdersOf);
  return [];
}

function valueOf(spec: string, lookup: Lookup): unknown {
  if (!spec.includes('|')) return lookup(spec);
  const { name, filters } = parsePlaceholder(spec);
  let value = lookup(name);
  for (const filter of filters) {
    // Nothing to hash stays nothing: an empty password is "keep it", never the digest of "".
    if (value === undefined || value === null || value === '') return value;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    value = filter === 'xml' || filter === 'local' ? textFilter(filter, text) : hexDigest(filter as HashName, text);
  }
  return value;
}

function fill(template: Template, lookup: Lookup): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE.exec(template);
    if (whole) {
      const value = valueOf(whole[1]!, lookup);
      return value === undefined || value === null ? ABSENT : value;
    }
    let absent = false;
    const text = template.replace(INSIDE, (_m, name: string) => {
      const value = valueOf(name, lookup);
      if (value === undefined || value === null) absent = true;
      return typeof value === 'string' ? value : JSON.stringify(value);
    });
    return absent ? ABSENT : text;
  }
  if (Array.isArray(template)) return template.map((t) => fill(t, lookup)).filter((v) => v !== ABSENT);
  if (typeof template === 'object' && template !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(template)) {
      const value = fill(member, lookup);
      if (value !== ABSENT) out[key] = value;
    }
    return out;
  }
  return template;
}

export function fillTemplate(template: Template, lookup: Lookup): unknown {
  const body = fill(template, lookup);
  return body === ABSENT ? null : body;
}
