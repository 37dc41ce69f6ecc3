import { formatPointer } from './pointer.js';

/**
 * A map's `variables`: values read from the environment at start (an XMPP host, a MUC service)
 * and written into every text of the map where `{$name}` appears, so one map file serves every
 * deployment. A default may use the variables declared before it (`conference.{$host}`).
 * Values are host-like words only: they land in paths and JSON bodies unescaped.
 */

type Json = unknown;
type Fail = (at: string, reason: string) => never;

export interface VariableMap {
  env: string;
  default?: string;
}

const VALUE = /^[A-Za-z0-9._~:@+-]{1,253}$/;
const USE = /\{\$([A-Za-z][A-Za-z0-9_]*)\}/g;

function substitute(text: string, values: ReadonlyMap<string, string>, at: (string | number)[], fail: Fail): string {
  return text.replace(USE, (_whole, name: string) => {
    const value = values.get(name);
    if (value === undefined)
      fail(
        formatPointer(at),
        `"{$${name}}": no variable "${name}" (declared: ${[...values.keys()].join(', ') || 'none'})`,
      );
    return value;
  });
}

/** The variables' values, each from its environment variable or its default. */
export function variableValues(
  declared: Record<string, VariableMap> | undefined,
  env: Readonly<Record<string, string | undefined>>,
  fail: Fail,
): Map<string, string> {
  const values = new Map<string, string>();
  for (const [name, variable] of Object.entries(declared ?? {})) {
    const at = ['variables', name];
    const set = env[variable.env];
    const raw = set !== undefined && set !== '' ? set : variable.default;
    if (raw === undefined) fail(formatPointer(at), `${variable.env} is not set and the variable has no default`);
    const value = set !== undefined && set !== '' ? raw : substitute(raw, values, [...at, 'default'], fail);
    if (!VALUE.test(value))
      fail(
        formatPointer(at),
        `${variable.env}="${value}" is not a host-like value (letters, digits and . _ ~ : @ + - only)`,
      );
    values.set(name, value);
  }
  return values;
}

/** The map with every `{$name}` in its texts (keys included) replaced; `variables` itself is left as written. */
export function withVariables(map: Json, values: ReadonlyMap<string, string>, fail: Fail): Json {
  const walk = (value: Json, at: (string | number)[]): Json => {
    if (typeof value === 'string') return substitute(value, values, at, fail);
    if (Array.isArray(value)) return value.map((item, index) => walk(item, [...at, index]));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, Json> = {};
    for (const [key, member] of Object.entries(value)) {
      const path = [...at, key];
      out[substitute(key, values, path, fail)] = at.length === 0 && key === 'variables' ? member : walk(member, path);
    }
    return out;
  };
  return walk(map, []);
}
