import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import { backendMapJsonSchema } from '../../server/backend-map/schema.js';
import { SCHEMA_FILE, schemaFileText } from '../../server/backend-map/write-schema.js';
import { CALL_NAMES } from '../../server/backend-map/types.js';
import { OWN_CALLS } from '../../server/contract/index.js';

/**
 * The map's shape is written once, in schema.ts: the file editors and the bindings name as their
 * `$schema` is that schema written out, and must not fall behind it.
 */
describe('backend-map.schema.json', () => {
  it('is schema.ts written out (npm run schema:backend-map rewrites it)', async () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(await schemaFileText());
  });

  it('is a schema ajv compiles in strict mode, as the gateway does at start', () => {
    const ajv = new Ajv({ strict: true, allowUnionTypes: true });
    expect(() => ajv.compile(backendMapJsonSchema())).not.toThrow();
  });

  it('lists every screen call and every own call of the console, from their one list', () => {
    const definitions = backendMapJsonSchema().definitions as Record<
      string,
      { properties: Record<string, { properties?: object }> }
    >;
    expect(Object.keys(definitions.resource!.properties.calls!.properties!)).toEqual([...CALL_NAMES]);
    expect(Object.keys(definitions.console!.properties.calls!.properties!)).toEqual([...OWN_CALLS]);
  });
});
