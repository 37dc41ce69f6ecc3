import type { Template } from './types.js';

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

function fill(template: Template, lookup: Lookup): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE.exec(template);
    if (whole) {
      const value = lookup(whole[1]!);
      return value === undefined || value === null ? ABSENT : value;
    }
    let absent = false;
    const text = template.replace(INSIDE, (_m, name: string) => {
      const value = lookup(name);
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
