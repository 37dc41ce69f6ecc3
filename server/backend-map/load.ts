import { readFileSync } from 'node:fs';
import Ajv, { type ErrorObject } from 'ajv';
import { ALL_PERMISSIONS, RESOURCES } from '../contract/index.js';
import { backendMapJsonSchema } from './schema.js';
import { formatPointer } from './pointer.js';
import { checkExpressions } from './check-expressions.js';
import { SIGNERS } from './signers/index.js';
import { checkPlans } from './plan-checks.js';
import { variableValues, withVariables, type VariableMap } from './variables.js';
import { fieldKinds } from './fields.js';
import { CALLS_OF, actionNamesOf } from './calls.js';
import type { BackendMapFile, CallMap, CallName, PermissionList } from './types.js';

/** A map that cannot be used: names the place (a JSON Pointer into the file) and what is wrong. */
export class BackendMapError extends Error {
  constructor(
    readonly file: string,
    readonly at: string,
    readonly reason: string,
  ) {
    super(`${file} at ${at === '' ? '/' : at}: ${reason}`);
    this.name = 'BackendMapError';
  }
}

const ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
const validate = ajv.compile<BackendMapFile>(backendMapJsonSchema());

export function describeError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (
    error.keyword === 'additionalProperties' &&
    error.instancePath === '/console/calls' &&
    params.additionalProperty === 'syncCashWithdrawal'
  ) {
    return 'the withdrawal sync is an action of the withdrawal review screen: bind it at /resources/withdrawalReview/actions/syncCashWithdrawal';
  }
  // The first of the forms that failed would name only its own rule ("must be all").
  if (error.instancePath === '/permissions' && error.schemaPath.startsWith('#/oneOf')) {
    return 'must be "all", {call, list} or {from, table, otherwise?}';
  }
  if (error.keyword === 'additionalProperties') return `unknown member "${String(params.additionalProperty)}"`;
  if (error.keyword === 'enum')
    return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'const') return `must be ${JSON.stringify(params.allowedValue)}`;
  if (error.keyword === 'propertyNames') return `has a name that is not a resource id`;
  return error.message ?? error.keyword;
}

/** The parts of one call that only make sense together. */
function checkCall(file: string, call: CallMap, at: string): void {
  if (call.template === undefined) return;
  if (call.in === 'query' || call.in === 'form')
    throw new BackendMapError(file, `${at}/template`, `a template is a JSON body; "in" is "${call.in}"`);
  if (call.body !== undefined)
    throw new BackendMapError(file, `${at}/template`, 'a template and "body" both say what the body is: keep one');
}

/** Checks what the schema cannot: that the map names resources, fields, calls and actions the console has. */
function checkAgainstContract(file: string, map: BackendMapFile): void {
  const byId = new Map(RESOURCES.map((r) => [r.id, r]));
  for (const [id, entry] of Object.entries(map.resources ?? {})) {
    const resource = byId.get(id);
    const at = (...rest: string[]) => formatPointer(['resources', id, ...rest]);
    if (!resource)
      throw new BackendMapError(
        file,
        at(),
        `no resource "${id}" in the console (known: ${[...byId.keys()].join(', ')})`,
      );
    const keys = [...fieldKinds(resource).keys()];
    for (const [key, field] of Object.entries(entry.fields ?? {})) {
      // A backend field outside the contract is welcome when the map says how to show it.
      if (keys.includes(key) && field.shown)
        throw new BackendMapError(
          file,
          at('fields', key, 'shown'),
          `"${key}" is a field of the console's ${id}: it is shown already, as its own kind`,
        );
      if (!keys.includes(key) && !field.shown)
        throw new BackendMapError(
          file,
          at('fields', key),
          `${id} has no field "${key}" (its fields: ${keys.join(', ')}); a backend field outside them needs "shown" (its kind) to appear on the record page`,
        );
    }
    for (const name of Object.keys(entry.calls ?? {}) as CallName[]) {
      if (!CALLS_OF[resource.kind].includes(name)) {
        throw new BackendMapError(
          file,
          at('calls', name),
          `a ${resource.kind} screen makes no "${name}" call (its calls: ${CALLS_OF[resource.kind].join(', ')})`,
        );
      }
    }
    const actions = actionNamesOf(resource);
    for (const [name, call] of Object.entries(entry.actions ?? {})) {
      if (!actions.includes(name))
        throw new BackendMapError(
          file,
          at('actions', name),
          `${id} has no action "${name}" (its actions: ${actions.join(', ') || 'none'})`,
        );
      checkCall(file, call, at('actions', name));
      if (call.bulk) {
        const overSelection =
          resource.kind === 'list' && (resource.actions ?? []).some((a) => a.name === name && a.target === 'bulk');
        if (!overSelection)
          throw new BackendMapError(
            file,
            at('actions', name, 'bulk'),
            `${id}.${name} is never sent over a selection ({ids}): no bulk call to bind`,
          );
        if (call.bulk.bulk)
          throw new BackendMapError(
            file,
            at('actions', name, 'bulk', 'bulk'),
            'a bulk call has no bulk call of its own',
          );
        checkCall(file, call.bulk, at('actions', name, 'bulk'));
      }
    }
    for (const [name, call] of Object.entries(entry.calls ?? {}) as [CallName, CallMap][]) {
      checkCall(file, call, at('calls', name));
      if (call.bulk)
        throw new BackendMapError(
          file,
          at('calls', name, 'bulk'),
          'only actions have a bulk call (the console sends {ids} to actions only)',
        );
      const answer = call.answer ?? {};
      if (name === 'list' && (answer.relations || answer.recordAs !== undefined || answer.record !== undefined)) {
        throw new BackendMapError(
          file,
          at('calls', name, 'answer'),
          'a list answer has rows, not a record: record, recordAs and relations apply to the other calls',
        );
      }
      if (name !== 'list' && answer.lift !== undefined) {
        throw new BackendMapError(
          file,
          at('calls', name, 'answer', 'lift'),
          'lift reads list rows: it applies to a list',
        );
      }
    }
  }
}

/** The console's own calls: only what the schema cannot check (a call's members that clash). */
function checkConsole(file: string, map: BackendMapFile): void {
  for (const [name, call] of Object.entries(map.console?.calls ?? {}))
    checkCall(file, call, formatPointer(['console', 'calls', name]));
  const upload = map.console?.calls?.upload;
  if (upload && !upload.unsupported) {
    // The file goes out as multipart/form-data whatever else is said: the body is the file's parts.
    for (const member of ['in', 'body', 'template', 'dates'] as const) {
      if (upload[member] !== undefined) {
        throw new BackendMapError(
          file,
          formatPointer(['console', 'calls', 'upload', member]),
          'an upload is always sent as multipart/form-data: rename its parts with params, add parts with extra',
        );
      }
    }
  }
}

/** Checks what the schema cannot of `auth` and `permissions`: names that must meet, signers that must exist. */
function checkAuth(file: string, map: BackendMapFile): void {
  const { auth, permissions } = map;
  if (auth) {
    const signer = auth.signer ? SIGNERS.get(auth.signer.name) : undefined;
    if (auth.signer && !signer) {
      throw new BackendMapError(
        file,
        '/auth/signer/name',
        `no signer "${auth.signer.name}" (known: ${[...SIGNERS.keys()].join(', ')})`,
      );
    }
    const reason = signer?.check(auth, auth.signer?.options ?? {});
    if (reason) throw new BackendMapError(file, '/auth/signer', `the ${signer!.name} signer ${reason}`);
    if (!auth.token && !signer) {
      throw new BackendMapError(
        file,
        '/auth',
        'the token travels nowhere: set auth.token (headers, query or cookie) or a signer that carries it',
      );
    }
    const { answer, basic } = auth.login;
    if (!basic && (answer.token === undefined || answer.userId === undefined))
      throw new BackendMapError(
        file,
        '/auth/login/answer',
        'needs token and userId: where the login answer has them (or basic, whose credentials are the token)',
      );
    const fields = auth.login.fields ?? {};
    const names = [
      fields.account ?? 'account',
      fields.password ?? 'password',
      ...(fields.code === undefined ? [] : [fields.code]),
    ];
    for (const name of Object.keys(auth.login.extra ?? {})) {
      if (names.includes(name))
        throw new BackendMapError(
          file,
          formatPointer(['auth', 'login', 'extra', name]),
          'is also the name of a form field',
        );
    }
  }
  if (permissions === undefined || permissions === 'all' || 'call' in permissions) return;
  const kept = Object.keys(auth?.login.answer.keep ?? {});
  if (!kept.includes(permissions.from)) {
    throw new BackendMapError(
      file,
      '/permissions/from',
      `"${permissions.from}" is not a value the login keeps (auth.login.answer.keep: ${kept.join(', ') || 'none'})`,
    );
  }
  const known = new Set<string>(ALL_PERMISSIONS);
  const check = (list: PermissionList, at: string) => {
    if (list === 'all') return;
    list.forEach((permission, index) => {
      if (!known.has(permission))
        throw new BackendMapError(
          file,
          `${at}/${index}`,
          `no permission "${permission}" in the console (server/contract/permissions.ts)`,
        );
    });
  };
  for (const [value, list] of Object.entries(permissions.table))
    check(list, formatPointer(['permissions', 'table', value]));
  if (permissions.otherwise) check(permissions.otherwise, '/permissions/otherwise');
}

/** Parses and checks a map's text; `file` only names it in errors, `env` gives its variables' values. */
export function parseBackendMap(
  text: string,
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): BackendMapFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BackendMapError(file, '', `not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const fail = (at: string, reason: string): never => {
    throw new BackendMapError(file, at, reason);
  };
  // Variables first: the checks below see the map as this deployment uses it.
  if (typeof json === 'object' && json !== null && !Array.isArray(json) && 'variables' in json) {
    const declared = (json as { variables?: unknown }).variables;
    if (typeof declared !== 'object' || declared === null || Array.isArray(declared))
      fail('/variables', 'must be an object of {env, default}');
    if (!validate({ variables: declared })) fail('/variables', describeError(validate.errors![0]!));
    json = withVariables(json, variableValues(declared as Record<string, VariableMap>, env, fail), fail);
  }
  if (!validate(json)) {
    const error = validate.errors?.[0];
    throw new BackendMapError(
      file,
      error?.instancePath ?? '',
      error ? describeError(error) : 'does not match the schema',
    );
  }
  checkAgainstContract(file, json);
  checkConsole(file, json);
  checkAuth(file, json);
  checkPlans(json, (at, reason) => {
    throw new BackendMapError(file, at, reason);
  });
  checkExpressions(json, (at, reason) => {
    throw new BackendMapError(file, at, reason);
  });
  return json;
}

export function loadBackendMap(
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): BackendMapFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BackendMapError(
      file,
      '',
      code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? String(error)})`,
    );
  }
  return parseBackendMap(text, file, env);
}
