import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { backendMapJsonSchema } from './schema.js';

/**
 * Writes backend-map.schema.json from schema.ts, formatted as the repository formats JSON, for the
 * editors and bindings that name it as their `$schema`. Run after changing the map's shape:
 * `npm run schema:backend-map` (a test fails while the file is behind).
 */

export const SCHEMA_FILE = fileURLToPath(new URL('./backend-map.schema.json', import.meta.url));

export async function schemaFileText(): Promise<string> {
  const options = (await resolveConfig(SCHEMA_FILE)) ?? {};
  return format(JSON.stringify(backendMapJsonSchema(), null, 2), { ...options, filepath: SCHEMA_FILE });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await schemaFileText();
  if (readFileSync(SCHEMA_FILE, 'utf8') === text) console.log(`${SCHEMA_FILE} is up to date`);
  else {
    writeFileSync(SCHEMA_FILE, text);
    console.log(`wrote ${SCHEMA_FILE}`);
  }
}
