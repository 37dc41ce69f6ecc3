import { Type } from '@sinclair/typebox';
import { closed, constOf, enumOf, mapOf, oneOf, ref } from './schema-kit.js';
import { pointer, scalar } from './schema-call.js';

/**
 * The backend map's shape, part two: how the gateway logs in, carries its token and signs, where
 * a session's permissions come from, and the services beside CHAT_BACKEND_URL.
 */

const pointerRef = ref('pointer', pointer);
const HEADER_NAME = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";

/** Where a value goes on each call to the backend: header names, a query parameter, a cookie. */
export const travel = closed(
  {
    headers: Type.Optional(Type.Array(Type.String({ pattern: HEADER_NAME }), { minItems: 1 })),
    query: Type.Optional(Type.String({ minLength: 1 })),
    cookie: Type.Optional(Type.String({ pattern: HEADER_NAME })),
    prefix: Type.Optional(Type.String({ description: 'Written before the value in the headers, e.g. "Bearer ".' })),
  },
  {
    description: 'Where a value goes on every call to the backend: header names, a query parameter and/or a cookie.',
    minProperties: 1,
  },
);

/** The backend's own login call, sent by the gateway in place of the contract's. */
export const login = closed(
  {
    path: Type.String({ description: "Under the backend's base URL.", pattern: '^/' }),
    method: Type.Optional(enumOf(['POST', 'PUT', 'GET'])),
    in: Type.Optional(enumOf(['json', 'form', 'query'])),
    fields: Type.Optional(
      closed(
        {
          account: Type.Optional(Type.String({ minLength: 1 })),
          password: Type.Optional(Type.String({ minLength: 1 })),
          code: Type.Optional(Type.String({ minLength: 1 })),
        },
        {
          description:
            "The backend's names of the console's account, password and one-time code; without code the code is not sent.",
        },
      ),
    ),
    password: Type.Optional(
      enumOf(['none', 'md5', 'sha256'], {
        description: 'What the password becomes before it is sent: hex digests in lower case.',
      }),
    ),
    extra: Type.Optional(mapOf(ref('scalar', scalar), { description: 'Fixed members sent with every login.' })),
    basic: Type.Optional(
      closed(
        {
          user: Type.String({
            minLength: 1,
            description:
              'The Basic user made of the form\'s account, "{account}@example.org" (an account that already has "@" is taken as typed).',
          }),
        },
        {
          description:
            "HTTP Basic: the login call carries the form's account and password as Basic credentials and succeeds on a 2xx answer; the credentials are the session's token (sealed in its cookie, sent as the token travels: an authorization header with the prefix \"Basic \") and the user is its user id. 401 and 403 are the console's wrong login.",
        },
      ),
    ),
    whenEmpty: Type.Optional(
      closed(
        {
          account: Type.Optional(ref('scalar', scalar)),
          password: Type.Optional(ref('scalar', scalar)),
          code: Type.Optional(ref('scalar', scalar)),
        },
        {
          description:
            'What is sent in place of a field the form left empty: a backend that types its one-time code as a required number refuses an empty one (Shiku: googlecode 0).',
        },
      ),
    ),
    answer: closed({
      token: Type.Optional(pointerRef),
      userId: Type.Optional(pointerRef),
      keep: Type.Optional(
        Type.Unsafe<Record<string, string>>({
          description: 'Answer values kept in the session under these names (a level, a role, an apiKey).',
          type: 'object',
          propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]*$' },
          additionalProperties: pointerRef,
        }),
      ),
      code: Type.Optional(pointerRef),
      message: Type.Optional(pointerRef),
      success: Type.Optional(
        Type.Array(Type.Unsafe<number | string>({ type: ['integer', 'string'] }), { minItems: 1 }),
      ),
      authenticatorNeeded: Type.Optional(
        Type.Array(Type.String({ minLength: 1 }), {
          description:
            'Refusal messages by which the backend says the account must bind an authenticator before it may log in: the gateway answers its own AUTHENTICATOR_NEEDED, which the console shows in its language.',
          minItems: 1,
        }),
      ),
    }),
  },
  { description: "The backend's login call, sent by the gateway in place of the contract's." },
);

/** A value made afresh for each call to the backend. */
export const generated = closed(
  {
    value: enumOf(['uuid', 'epoch-seconds', 'epoch-millis']),
    header: Type.Optional(Type.String({ pattern: HEADER_NAME })),
    query: Type.Optional(Type.String({ minLength: 1 })),
  },
  { description: 'A value made afresh for every call to the backend.', minProperties: 2 },
);

export const signer = closed({
  name: Type.String({ description: 'A module of server/backend-map/signers/.', pattern: '^[a-z][a-z0-9-]*$' }),
  options: Type.Optional(mapOf(ref('scalar', scalar))),
});

/**
 * The backend's clock, asked before each login, for a backend that refuses a signature whose time
 * is off (Shiku: ±180 s): the difference is kept in the session and added to every later time.
 */
export const clock = closed(
  {
    path: Type.String({ pattern: '^/' }),
    method: Type.Optional(enumOf(['GET', 'POST'])),
    at: pointerRef,
    format: enumOf(['epoch-millis', 'epoch-seconds']),
  },
  {
    description:
      "The backend's clock, asked (without credentials) before each login; the difference is kept in the session and corrects the time of every signature and generated time.",
  },
);

export const auth = closed(
  {
    login: ref('login', login),
    token: Type.Optional(ref('travel', travel)),
    userId: Type.Optional(ref('travel', travel)),
    generated: Type.Optional(Type.Array(ref('generated', generated))),
    signer: Type.Optional(ref('signer', signer)),
    clock: Type.Optional(clock),
  },
  { description: 'How the gateway logs in to the backend, carries its token, generates per-call values and signs.' },
);

/** A permission list: the console's permission strings, or "all" of them. */
export const permissionList = oneOf([constOf('all'), Type.Array(Type.String())]);
const permissionListRef = ref('permissionList', permissionList);

export const permissions = oneOf(
  [
    constOf('all'),
    closed({
      call: closed({
        path: Type.String({ description: "Under the backend's base URL.", pattern: '^/' }),
        method: Type.Optional(enumOf(['GET', 'POST'])),
      }),
      list: pointerRef,
    }),
    closed({
      from: Type.String(),
      table: mapOf(permissionListRef),
      otherwise: Type.Optional(permissionListRef),
    }),
  ],
  { description: "Where a session's permissions come from: all, a backend call, or a table from a kept login value." },
);

/** A base URL of its own for some calls (a backend split over services), read from an environment variable. */
export const service = closed({
  env: Type.String({
    description:
      "The environment variable holding the service's base URL (upper case, ending in _URL); unset, the service is CHAT_BACKEND_URL (or the sandbox's service of that name).",
    pattern: '^[A-Z][A-Z0-9_]*_URL$',
  }),
  description: Type.Optional(Type.String()),
  token: Type.Optional(
    Type.String({
      description:
        "A value the login keeps (auth.login.answer.keep) that is this service's token: its calls carry it where auth.token says, in place of the login's token (OpenIM Server's imToken).",
      pattern: '^[A-Za-z][A-Za-z0-9_]*$',
    }),
  ),
});
