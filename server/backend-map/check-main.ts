import { readFileSync } from 'node:fs';
import { checkMapText } from './map-check.js';

/**
 * `npm run map:check FILE`: every error of a backend map, each at its JSON Pointer, and its open
 * questions. Exit 0 for a map the gateway would load (questions or not), 1 with errors, 64 for
 * bad arguments, 66 for a file that cannot be read.
 */

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  process.stderr.write('usage: npm run map:check FILE\n');
  process.exit(64);
}
let text: string;
try {
  text = readFileSync(file, 'utf8');
} catch (error) {
  process.stderr.write(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})\n`);
  process.exit(66);
}
const { errors, questions } = checkMapText(text, file);
for (const e of errors) process.stdout.write(`error    ${e.at === '' ? '/' : e.at}: ${e.reason}\n`);
for (const q of questions) process.stdout.write(`question ${q.at === '' ? '/' : q.at}: ${q.reason}\n`);
const asked = questions.length ? `, ${questions.length} questions open` : '';
process.stdout.write(
  errors.length ? `${file}: ${errors.length} errors${asked}\n` : `${file}: the gateway would load this map${asked}\n`,
);
process.exit(errors.length ? 1 : 0);
