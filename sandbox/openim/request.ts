import { OpenImError, argsError } from './envelope.js';

/**
 * A request body read the way OpenIM binds it: Go's encoding/json into the generated proto structs
 * (tools `a2r/api2rpc.go` `jsonBinding.Bind`). So keys match case-insensitively, a JSON null leaves
 * the field at its zero value, a value of the wrong JSON type refuses the call (1001), and unknown
 * keys are ignored. Nullable update fields (`wrapperspb`) are bare values: absent or null = unchanged.
 */

type Row = Record<string, unknown>;

export interface Pagination {
  pageNumber: number;
  showNumber: number;
}

const typeError = (name: string, want: string, value: unknown) =>
  argsError(
    `json: cannot unmarshal ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value} into Go struct field .${name} of type ${want}`,
  );

export class OpenImBody {
  private constructor(private readonly row: Row) {}

  /** Parses the raw text; Content-Type is not looked at, as OpenIM's binder does not. */
  static parse(raw: unknown): OpenImBody {
    const text = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : String(raw);
    if (text.trim() === '') throw argsError('unexpected end of JSON input');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw argsError(error instanceof Error ? error.message : 'invalid character in JSON');
    }
    if (value === null) return new OpenImBody({});
    if (typeof value !== 'object' || Array.isArray(value))
      throw argsError(`json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go value`);
    return new OpenImBody(value as Row);
  }

  static of(row: Row): OpenImBody {
    return new OpenImBody(row);
  }

  /** Go matches an exact key first, then any key equal under case folding. */
  raw(name: string): unknown {
    if (Object.hasOwn(this.row, name)) return this.row[name];
    const lower = name.toLowerCase();
    for (const key of Object.keys(this.row)) if (key.toLowerCase() === lower) return this.row[key];
    return undefined;
  }

  has(name: string): boolean {
    const value = this.raw(name);
    return value !== undefined && value !== null;
  }

  str(name: string): string {
    return this.optStr(name) ?? '';
  }

  optStr(name: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw typeError(name, 'string', value);
    return value;
  }

  int(name: string): number {
    return this.optInt(name) ?? 0;
  }

  optInt(name: string): number | undefined {
    const value = this.raw(name);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw typeError(name, 'int32', value);
    return value;
  }

  bool(name: string): boolean {
    return this.optBool(name) ?? false;
  }

  optBool(name: string): boolean | undefined {
    const value = this.raw(name);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') throw typeError(name, 'bool', value);
    return value;
  }

  /** A repeated string field; null when absent (a nil slice, which the Check() methods test for). */
  strList(name: string): string[] | null {
    const value = this.raw(name);
    if (value === undefined || value === null) return null;
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw typeError(name, '[]string', value);
    return value as string[];
  }

  /** A repeated message field, each element as its own body. */
  list(name: string): OpenImBody[] | null {
    const value = this.raw(name);
    if (value === undefined || value === null) return null;
    if (!Array.isArray(value) || value.some((v) => v !== null && (typeof v !== 'object' || Array.isArray(v))))
      throw typeError(name, '[]object', value);
    return value.map((v) => new OpenImBody((v ?? {}) as Row));
  }

  /** A nested message; null when absent. */
  obj(name: string): OpenImBody | null {
    const value = this.raw(name);
    if (value === undefined || value === null) return null;
    if (typeof value !== 'object' || Array.isArray(value)) throw typeError(name, 'object', value);
    return new OpenImBody(value as Row);
  }

  /** A `map<string, string>` field. */
  stringMap(name: string): Record<string, string> | null {
    const value = this.raw(name);
    if (value === undefined || value === null) return null;
    if (typeof value !== 'object' || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string')) {
      throw typeError(name, 'map[string]string', value);
    }
    return value as Record<string, string>;
  }

  /** `pagination` as the search calls' Check() methods require it: present, both numbers ≥ 1. */
  pagination(): Pagination {
    const nested = this.obj('pagination');
    if (!nested) throw argsError('pagination is empty');
    const pageNumber = nested.int('pageNumber');
    const showNumber = nested.int('showNumber');
    if (pageNumber < 1) throw argsError('pageNumber is invalid');
    if (showNumber < 1) throw argsError('showNumber is invalid');
    return { pageNumber, showNumber };
  }
}

/** One page as mongoutil.FindPage cuts it: skip (pageNumber-1)*showNumber, in stored order, no sort. */
export function pageOf<T>(items: readonly T[], pagination: Pagination): { total: number; list: T[] } {
  const skip = (pagination.pageNumber - 1) * pagination.showNumber;
  return { total: items.length, list: items.slice(skip, skip + pagination.showNumber) };
}

/** An empty repeated field arrives at the API decoded from protobuf as a nil slice, which Go writes as null. */
export function listOrNull<T>(list: readonly T[]): T[] | null {
  return list.length === 0 ? null : [...list];
}

/**
 * The keyword as Mongo's `$regex` with option `i` reads it: the text is a pattern, not escaped.
 * A pattern Mongo cannot compile fails the query, which OpenIM answers as an internal error.
 */
export function keywordMatcher(keyword: string): (text: string) => boolean {
  if (keyword === '') return () => true;
  let pattern: RegExp;
  try {
    pattern = new RegExp(keyword, 'iu');
  } catch {
    throw new OpenImError(500, `(BadValue) Regular expression is invalid: ${keyword}`, true);
  }
  return (text) => pattern.test(text);
}
