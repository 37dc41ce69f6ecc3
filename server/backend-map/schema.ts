import { Type, type Static, type TOptional, type TSchema } from '@sinclair/typebox';
import { OWN_CALLS, type OwnCallName } from '../contract/index.js';
import { closed, enumOf, ref } from './schema-kit.js';
import {
  call,
  envelope,
  field,
  generatedValue,
  hashName,
  idType,
  keyCase,
  ownCall,
  pointer,
  refusals,
  relation,
  resource,
  scalar,
  template,
  timeFormat,
} from './schema-call.js';
import { auth, generated, login, permissionList, permissions, service, signer, travel } from './schema-auth.js';

/**
 * The backend map's shape, written once: the JSON Schema a map is checked against at start
 * (load.ts) and the TypeScript types of a loaded map (types.ts) both come from here. The file
 * backend-map.schema.json, which maps name as their `$schema` for editors, is this schema written
 * out (write-schema.ts); a test fails when the two differ.
 */

const UPLOAD =
  "The gateway's upload to the file server: multipart/form-data with the parts kind, name and file (rename them with params, add parts with extra); its answer's path (and url) are read through fields.";
const ownCallRef = ref('ownCall', ownCall);
const ownCalls = Object.fromEntries(
  OWN_CALLS.map((name) => [
    name,
    Type.Optional(name === 'upload' ? ref('ownCall', ownCall, { description: UPLOAD }) : ownCallRef),
  ]),
) as Record<OwnCallName, TOptional<typeof ownCallRef>>;

/** The `console` section: the console's own calls outside the management screens. */
export const consoleSection = closed(
  {
    keyCase: Type.Optional(ref('keyCase', keyCase)),
    id: Type.Optional(ref('idType', idType)),
    refusals: Type.Optional(ref('refusals', refusals)),
    calls: Type.Optional(closed(ownCalls)),
  },
  {
    description:
      "The console's own calls outside the management screens, by their names in server/contract/calls.ts (OWN_CALLS).",
  },
);

/** Every definition, by the name `$ref` gives it, in the order the file lists them. */
const DEFINITIONS: Record<string, TSchema> = {
  pointer,
  envelope,
  timeFormat,
  scalar,
  field,
  call,
  console: consoleSection,
  ownCall,
  resource,
  keyCase,
  idType,
  refusals,
  template,
  relation,
  travel,
  login,
  generated,
  signer,
  auth,
  permissionList,
  permissions,
  hashName,
  generatedValue,
  service,
};

const members = {
  $schema: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  timeZone: Type.Optional(
    Type.String({
      description: "UTC offset of the backend's times written without a zone (yyyy-MM-dd HH:mm:ss), e.g. +08:00.",
      pattern: '^[+-](0\\d|1[0-4]):[0-5]\\d$',
    }),
  ),
  answer: Type.Optional(ref('envelope', envelope)),
  console: Type.Optional(ref('console', consoleSection)),
  resources: Type.Optional(
    Type.Unsafe<Record<string, Static<typeof resource>>>({
      type: 'object',
      propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9]*$' },
      additionalProperties: ref('resource', resource),
    }),
  ),
  unnamed: Type.Optional(
    enumOf(['unsupported', 'passthrough'], {
      description:
        "What the console does with a screen whose resource the map does not name under `resources`. unsupported: the screen is not offered (gone from the menu, refused at the gateway, UNSUPPORTED in the probe), so a screen added to the console later never appears on a backend that cannot serve it; a map written for one backend sets it. passthrough (the default): its calls go to the backend as the contract's own.",
    }),
  ),
  keyCase: Type.Optional(ref('keyCase', keyCase)),
  id: Type.Optional(ref('idType', idType)),
  refusals: Type.Optional(ref('refusals', refusals)),
  auth: Type.Optional(ref('auth', auth)),
  permissions: Type.Optional(ref('permissions', permissions)),
  variables: Type.Optional(
    Type.Unsafe<Record<string, { env: string; default?: string }>>({
      description:
        'Values read from the environment at start and written into every text of the map where "{$name}" appears (a host name, a service name); a default may name variables before it.',
      type: 'object',
      propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]*$' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['env'],
        properties: {
          env: { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$' },
          default: { type: 'string' },
        },
      },
    }),
  ),
  questions: Type.Optional(
    Type.Array(
      closed({
        at: ref('pointer', pointer),
        ask: Type.String({ minLength: 1 }),
      }),
      {
        description:
          "What the probe's --write-map could not tell, each at the place in this map it concerns: the gateway ignores them; npm run map:check lists them. Answer each by editing the place, then delete it.",
      },
    ),
  ),
  services: Type.Optional(
    Type.Unsafe<Record<string, Static<typeof service>>>({
      description: 'Base URLs of their own for the calls that name them (a backend split over services), by name.',
      type: 'object',
      propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_-]*$' },
      additionalProperties: ref('service', service),
    }),
  ),
};

/** The schema's name: a map written by a tool (the probe's --write-map) points its `$schema` here. */
export const BACKEND_MAP_SCHEMA_ID = 'https://chat-admin-console.invalid/backend-map.schema.json';

export const backendMapSchema = closed(members, {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: BACKEND_MAP_SCHEMA_ID,
  title: 'Backend map of the chat admin console',
  description:
    "How the gateway translates the management screens' calls to a chat backend that speaks another dialect. Named by BACKEND_MAP; see docs/binding.md.",
  definitions: DEFINITIONS,
});

const FIRST = ['$schema', '$id', 'title', 'description', 'type'];

/** Names first, then the type, the definitions last: the order a reader of the file expects. */
function readingOrder(value: unknown, names = false): unknown {
  if (Array.isArray(value)) return value.map((item) => readingOrder(item));
  if (typeof value !== 'object' || value === null) return value;
  const rank = (key: string) =>
    names ? 0 : key === 'definitions' ? FIRST.length + 1 : FIRST.includes(key) ? FIRST.indexOf(key) : FIRST.length;
  const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b));
  // The members of `properties` and `definitions` are names (a property may be called "description"): kept in order.
  return Object.fromEntries(
    keys.map((key) => [
      key,
      readingOrder((value as Record<string, unknown>)[key], !names && (key === 'properties' || key === 'definitions')),
    ]),
  );
}

/** The schema as plain JSON (TypeBox's own marks dropped): what ajv compiles and the file holds. */
export function backendMapJsonSchema(): Record<string, unknown> {
  return readingOrder(JSON.parse(JSON.stringify(backendMapSchema))) as Record<string, unknown>;
}
