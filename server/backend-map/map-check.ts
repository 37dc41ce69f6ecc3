import Ajv from 'ajv';
import { BackendMap } from './engine.js';
import { BackendMapError, describeError, parseBackendMap } from './load.js';
import { backendMapJsonSchema } from './schema.js';
import type { BackendMapFile } from './types.js';

/**
 * `npm run map:check FILE`: a map checked as the gateway checks it at start, without starting
 * one, reporting every error it can (each with its JSON Pointer) rather than the first: every
 * schema error, then the checks against the contract, expressions, auth and plans resource by
 * resource, then the compiled map. The questions a written map leaves (`questions`) are listed.
 */

export interface MapProblem {
  at: string;
  reason: string;
}

export interface MapCheck {
  errors: MapProblem[];
  questions: MapProblem[];
}

const everyError = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile<BackendMapFile>(
  backendMapJsonSchema(),
);

export function checkMapText(text: string, file: string): MapCheck {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      errors: [{ at: '', reason: `not JSON (${error instanceof Error ? error.message : String(error)})` }],
      questions: [],
    };
  }
  if (!everyError(json)) {
    const errors = (everyError.errors ?? []).map((e) => ({ at: e.instancePath, reason: describeError(e) }));
    // One place's alternatives (oneOf) fail alike: each error once.
    const seen = new Set<string>();
    return {
      errors: errors.filter((e) => !seen.has(`${e.at} ${e.reason}`) && seen.add(`${e.at} ${e.reason}`)),
      questions: [],
    };
  }
  const map = json;
  const errors: MapProblem[] = [];
  const seen = new Set<string>();
  const attempt = (part: BackendMapFile) => {
    try {
      parseBackendMap(JSON.stringify(part), file);
      return true;
    } catch (error) {
      if (!(error instanceof BackendMapError)) throw error;
      const key = `${error.at} ${error.reason}`;
      if (!seen.has(key)) errors.push({ at: error.at, reason: error.reason });
      seen.add(key);
      return false;
    }
  };
  // The map without its screens, then each screen with the rest of the map: one error of each.
  attempt({ ...map, resources: {} });
  for (const [id, entry] of Object.entries(map.resources ?? {})) attempt({ ...map, resources: { [id]: entry } });
  if (errors.length === 0) {
    try {
      new BackendMap(map);
    } catch (error) {
      errors.push({
        at: error instanceof BackendMapError ? error.at : '',
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { errors, questions: (map.questions ?? []).map((q) => ({ at: q.at, reason: q.ask })) };
}
