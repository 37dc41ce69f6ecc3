import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Programs the benchmarks, the soak run and some tests start as child processes (Child.start). */
export const CHILDREN_DIR = path.join(REPO_ROOT, 'tests', 'bench', 'children');
