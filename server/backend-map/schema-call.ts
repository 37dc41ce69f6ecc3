import { Type, type Static, type TObject, type TOptional } from '@sinclair/typebox';
import { closed, constOf, enumOf, mapOf, ref, typesOf } from './schema-kit.js';

/**
 * The backend map's shape, part one: a call of the console and what it binds (fields, answers,
 * the plan members that reach beyond one request). Each `const` is a definition of the map's JSON
 * Schema (schema.ts writes them under `definitions`) and its TypeScript type (types.ts).
 */

/** The calls of a management screen a map can bind, in the order a resource's `calls` lists them. */
export const CALL_NAMES = ['list', 'detail', 'create', 'update', 'delete', 'config', 'saveConfig', 'preview'] as const;

export const pointer = Type.String({
  description: 'A JSON Pointer (RFC 6901): "" is the whole answer, /data/records a member.',
  pattern: '^(/([^~/]|~[01])*)*$',
});
const pointerRef = ref('pointer', pointer);

/** How a backend writes a time (a map's `time`, `dates.format`, `now` and `future`). */
export const timeFormat = enumOf(['iso', 'yyyy-MM-dd HH:mm:ss', 'yyyy-MM-dd', 'epoch-seconds', 'epoch-millis']);
const timeFormatRef = ref('timeFormat', timeFormat);

export const scalar = typesOf<string | number | boolean | null>(['string', 'number', 'boolean', 'null']);
const scalarRef = ref('scalar', scalar);

const successCodes = Type.Array(typesOf<number | string>(['integer', 'string']), {
  description: 'The codes that mean success.',
  minItems: 1,
});
/** A backend without an envelope (ejabberd's API): the HTTP status is the code, the body the data. */
const byStatus = constOf(true, {
  description:
    "The backend writes no envelope: the HTTP status is the answer's code (2xx succeeds) and the whole body is its data; a refusal's message is the body when it is text, else at message.",
});
export const envelope = closed({
  code: Type.Optional(pointerRef),
  message: Type.Optional(pointerRef),
  data: Type.Optional(pointerRef),
  success: Type.Optional(successCodes),
  status: Type.Optional(byStatus),
});

/** How the backend writes its keys: snake_case, camelCase (the console's own), kebab-case or PascalCase. */
export const keyCase = enumOf(['snake', 'camel', 'kebab', 'pascal'], {
  description:
    "How the backend writes every key the map does not name itself: snake (page_num), camel (the console's own), kebab (page-num), pascal (PageNum). An explicit name or params rename wins.",
});

/** How the backend writes ids: as text ("10023") against the console's numbers. */
export const idType = enumOf(['string'], {
  description:
    'string: the backend writes ids as text ("10023"); the console\'s numeric ids are sent as text and read back as numbers.',
});
const idTypeRef = ref('idType', idType);

export const refusals = Type.Unsafe<Record<string, number>>({
  description: 'The backend\'s refusal codes to the console\'s ("40000": 400). A code not listed keeps its number.',
  type: 'object',
  propertyNames: { pattern: '^-?[0-9A-Za-z_.]+$' },
  additionalProperties: { type: 'integer', minimum: 100, maximum: 599 },
});

export const hashName = enumOf(['md5', 'sha256']);

/**
 * A value made for one call: a UUID, a password (12 letters and digits, at least one of each),
 * today's date in the map's time zone (YYYY-MM-DD, a range bound like the console's), or the time.
 */
export const generatedValue = enumOf(['uuid', 'password', 'today', 'epoch-seconds', 'epoch-millis'], {
  description:
    "uuid; password (twelve letters and digits); today (YYYY-MM-DD in the map's time zone); epoch-seconds; epoch-millis.",
});

/** A JSON value with "{name}" placeholders in its strings; the schema lets any JSON through. */
export type Template = Static<typeof scalar> | Template[] | { [key: string]: Template };
export const template = Type.Unsafe<Template>({
  description:
    'A JSON body with "{name}" placeholders (names as sent: after renames, field names and key case). A string that is one placeholder keeps its value\'s type; a placeholder with no value drops its member.',
});
const templateRef = ref('template', template);

export const field = closed({
  name: Type.Optional(Type.String({ description: "The backend's name of the field.", minLength: 1 })),
  absent: Type.Optional(constOf(true, { description: 'The backend has no such field.' })),
  filter: Type.Optional(
    constOf(false, {
      description:
        "The backend has the field but its list cannot be filtered by it: the console offers no filter on it (the offer's unsupported.filters), and a list call carrying one (a value or a date bound) is refused with 400 rather than answered unfiltered.",
    }),
  ),
  money: Type.Optional(
    enumOf(['yuan', 'cent'], {
      description:
        'yuan: a decimal number of yuan with at most two decimals; cent: whole smallest units, as the console. A fraction of the smallest unit is a bad answer, never rounded.',
    }),
  ),
  values: Type.Optional(
    mapOf(Type.Union([scalarRef, Type.Array(scalarRef, { minItems: 1 })]), {
      description:
        'The console\'s value (as text: "normal", "true") to the backend\'s; a list: every one of them reads as the console\'s value, the first is sent (OpenIM\'s group status: normal is 0, 1 or 3).',
    }),
  ),
  time: Type.Optional(timeFormatRef),
  id: Type.Optional(idTypeRef),
  future: Type.Optional(
    ref('timeFormat', timeFormat, {
      description:
        "A switch read from a time in this format: true while it is later than now (a mute's end). Never sent back.",
    }),
  ),
  asText: Type.Optional(
    constOf(true, {
      description:
        'The backend keeps the value as text (a map<string,string>): a number or switch goes out as its text ("500", "true") and reads back as the number or switch.',
    }),
  ),
  shown: Type.Optional(
    enumOf(['text', 'number', 'switch', 'datetime', 'date', 'money'], {
      description:
        "A backend field outside the console's contract (an online flag, a ban's end), keyed by a name of your choice: shown read-only on the record page as this kind, its other members (name, values, time, money) read as for any field. Never sent back.",
    }),
  ),
  hash: Type.Optional(
    ref('hashName', hashName, {
      description:
        'Sent as the lower-case hex digest of its text (a password the backend stores as md5); empty text stays empty; answers pass unchanged.',
    }),
  ),
  after: Type.Optional(
    Type.String({
      description:
        'Read only the text after this prefix ("审核拒绝:<reason>" reads as the reason); text without it reads as null. Sent unchanged.',
      minLength: 1,
    }),
  ),
  reads: Type.Optional(
    mapOf(scalarRef, {
      description:
        'More of the backend\'s values (as text) read as a console value, one way: `values` says what is sent ({"-1": "normal"}: a locked room is a normal group to the console).',
    }),
  ),
});
const fieldsOf = (description?: string) => mapOf(ref('field', field), description === undefined ? {} : { description });

/** A record or list inside an answer's data, with bindings of its own. */
export const relation = closed({
  at: Type.Optional(
    ref('pointer', pointer, {
      description: "Where it is in the backend's data (default: the console's key in the backend's key case).",
    }),
  ),
  fields: Type.Optional(fieldsOf("Its members' bindings, keyed by the console's names.")),
  recordFields: Type.Optional(
    constOf(true, { description: "Map its members through the resource's own fields too (its own fields win)." }),
  ),
});

const answer = closed({
  code: Type.Optional(pointerRef),
  message: Type.Optional(pointerRef),
  data: Type.Optional(pointerRef),
  success: Type.Optional(ref('envelope/properties/success', successCodes)),
  status: Type.Optional(ref('envelope/properties/status', byStatus)),
  list: Type.Optional(pointerRef),
  lift: Type.Optional(
    Type.Array(pointerRef, {
      description:
        "Records nested in each list row whose members are read as the row's own, before its fields (OpenIM Server's CMSGroup: /groupInfo); the row's own members win.",
      minItems: 1,
    }),
  ),
  total: Type.Optional(pointerRef),
  totalHeader: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9-]+$' })),
  totals: Type.Optional(pointerRef),
  record: Type.Optional(pointerRef),
  recordAs: Type.Optional(
    ref('pointer', pointer, {
      description:
        'Where the mapped record goes in the console\'s data when not at record (a flat detail: record "", recordAs /user).',
    }),
  ),
  relations: Type.Optional(
    mapOf(ref('relation', relation), {
      description: "Nested records and lists of the answer's data, by the console's member name.",
    }),
  ),
  refusals: Type.Optional(ref('refusals', refusals)),
  redirect: Type.Optional(
    constOf('success', {
      description:
        '"success": a 3xx answer (a write that redirects to the backend\'s list page, with no envelope) succeeded.',
    }),
  ),
  days: Type.Optional(
    mapOf(pointerRef, {
      description:
        "Counts whose days are the keys of a map ({\"2024-06-01\": 3}) or of a list's one-key objects, by the console's key, as JSON Pointers from the answer's root: a statistics row per day, or a figure's sum over the call's range.",
    }),
  ),
  result: Type.Optional(
    ref('template', template, {
      description:
        'The console\'s data, as a template over the call\'s values (generated ones included), instead of the answer\'s: {"password": "{password}"}.',
    }),
  ),
});

/** A backend parameter set to the time the call is made. */
const nowValue = closed({ format: timeFormatRef, plusSeconds: Type.Optional(Type.Integer()) }, {});

/** Codes made afresh for each of a repeated call's requests. */
const repeat = closed(
  {
    count: Type.String({ minLength: 1 }),
    max: Type.Integer({ minimum: 1, maximum: 1000 }),
    code: closed({
      param: Type.String({ minLength: 1 }),
      length: Type.Integer({ minimum: 4, maximum: 64 }),
      chars: Type.String({ minLength: 10 }),
    }),
  },
  {
    description:
      "An action sent `count` times (the console's parameter, 1 to max), each request with a code the gateway makes in `code.param`; answers {codes}.",
  },
);

/** A list the backend answers whole: the gateway searches, filters, sorts and pages it (whole-list.ts). */
const whole = closed(
  {
    item: Type.Optional(
      ref('template', template, {
        description:
          'Each item of the whole list as a row, a template over the item: "{item}" is a scalar item itself, "{item|local}" its text before "@", "{name}" an object item\'s member.',
      }),
    ),
    items: Type.Optional(
      Type.Array(ref('template', template), {
        minItems: 1,
        description:
          'Rows made of one record: the answer at `list` is a single record, and each template here, filled from its members ("{name}"), is one row (Shiku\'s ClientConfig holds each platform\'s version and download address as androidVersion, iosAppUrl, ...).',
      }),
    ),
    prefix: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "Only the items that are text starting with this prefix are rows (ejabberd's srg_list names every shared roster group of the host; the console's default friends are those named console-friend-<account>).",
      }),
    ),
    max: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: 'The longest list the gateway takes (default 200000): a longer answer is refused, not cut.',
      }),
    ),
  },
  {
    description:
      'The backend answers the whole list at once (no paging, search or sort of its own): the gateway keeps it for a few seconds per session and searches, filters, sorts and pages it.',
  },
);

/**
 * The members of a call. `bulk` and `also` name calls again: their type is written below as the
 * recursion TypeBox cannot infer, from these members.
 */
export const callMembers = {
  unsupported: Type.Optional(constOf(true)),
  method: Type.Optional(enumOf(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])),
  path: Type.Optional(
    Type.String({
      description: "Under the backend's base URL; {name} takes a parameter (after renames) out of the query or body.",
      pattern: '^/[^?#\\s]*$',
    }),
  ),
  in: Type.Optional(enumOf(['query', 'json', 'form'])),
  params: Type.Optional(
    mapOf(Type.String({ minLength: 1 }), {
      description: "The console's parameter name to the backend's (pageNum -> current).",
    }),
  ),
  body: Type.Optional(
    Type.String({
      description: 'Send this one parameter (after renames) as the whole JSON body, e.g. the array of ids.',
      minLength: 1,
    }),
  ),
  sort: Type.Optional(
    closed(
      {
        field: Type.String({ minLength: 1 }),
        order: Type.String({ minLength: 1 }),
        asc: Type.Optional(scalarRef),
        desc: Type.Optional(scalarRef),
      },
      { description: 'Sort as two parameters (orderBy=createTime&order=desc) instead of sort=-createTime.' },
    ),
  ),
  dates: Type.Optional(
    closed(
      {
        from: Type.Optional(Type.String({ minLength: 1 })),
        to: Type.Optional(Type.String({ minLength: 1 })),
        format: Type.Optional(timeFormatRef),
        exclusiveEnd: Type.Optional(
          constOf(true, {
            description:
              "The backend's end bound leaves itself out: the day after the console's last day is sent (its first second, or its date).",
          }),
        ),
      },
      {
        description:
          "Date ranges: the names of a filter's bounds ({name} is the field's backend name) and their format.",
      },
    ),
  ),
  firstPage: Type.Optional(
    enumOf([0, 1], {
      description:
        "The number of the backend's first page: 0 when it counts pages from zero (the console's pageNum 1 goes out as 0).",
    }),
  ),
  extra: Type.Optional(mapOf(scalarRef, { description: 'Fixed parameters sent with every call.' })),
  answer: Type.Optional(answer),
  template: Type.Optional(templateRef),
  session: Type.Optional(
    mapOf(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]*$' }), {
      description:
        'Backend parameters taken from the session: "userId" (the login answer\'s user id) or a name auth.login.answer.keep keeps.',
    }),
  ),
  now: Type.Optional(
    mapOf(nowValue, { description: 'Backend parameters set to the time of the call, in a format, plus seconds.' }),
  ),
  merge: Type.Optional(
    constOf('config', {
      description:
        "config: a settings save that replaces the backend's whole record; the gateway reads it with the config call first and sends it with the console's changes over it.",
    }),
  ),
  mergeAs: Type.Optional(
    mapOf(Type.String({ minLength: 1 }), {
      description:
        'With merge: members of the record as read sent back under another name, for a backend that writes a member out under one name and binds it under another (Shiku answers xMPPTimeout and binds XMPPTimeout).',
    }),
  ),
  lookup: Type.Optional(
    closed(
      {
        field: Type.String({
          minLength: 1,
          description: "The console's field whose value is looked up (it holds the key).",
        }),
        path: Type.String({ pattern: '^/', description: 'A GET under the backend base URL that lists the records.' }),
        extra: Type.Optional(mapOf(scalarRef, { description: 'Its fixed query parameters (every row at once).' })),
        list: pointerRef,
        match: Type.String({
          minLength: 1,
          description: "The member of the listed records equal to the field's value.",
        }),
        take: Type.String({
          minLength: 1,
          description: 'The member that becomes the value; a key no record has reads as null.',
        }),
      },
      {
        description:
          "A list's field shown as another record's member, looked up with one more call after the list (a red packet's roomJid as its room's name).",
      },
    ),
  ),
  keep: Type.Optional(
    closed(
      {
        present: Type.Optional(Type.String({ minLength: 1 })),
        absent: Type.Optional(Type.String({ minLength: 1 })),
        all: mapOf(scalarRef, {
          description: "The parameters that ask the backend for every row at once, in place of the console's page.",
        }),
      },
      {
        description:
          "A list the backend cannot filter: the gateway asks for every row (`all`), keeps those whose backend member is present (not null or empty) or absent, and pages and counts them itself (Shiku's one red-packet list, personal packets without roomJid).",
        minProperties: 2,
      },
    ),
  ),
  needs: Type.Optional(
    Type.Array(Type.String({ minLength: 1 }), {
      minItems: 1,
      uniqueItems: true,
      description:
        "Filters (the console's field keys) the backend cannot list without: a list call lacking one is refused with 400 naming it, before the backend is asked (Shiku's userBill lists one user's bills only).",
    }),
  ),
  each: Type.Optional(
    constOf(true, {
      description: 'The backend takes one id per call: a delete or a selection is sent once per id, as {id}.',
    }),
  ),
  repeat: Type.Optional(repeat),
  whole: Type.Optional(whole),
  set: Type.Optional(
    mapOf(pointerRef, {
      description: "A per-row call's values: the console's key to where the value is in the answer's data.",
    }),
  ),
  count: Type.Optional(
    mapOf(pointerRef, {
      description:
        "A call's values counted: the console's key to a list in the answer's data whose length is the value (ejabberd's registered_users for the number of accounts).",
    }),
  ),
  unless: Type.Optional(
    mapOf(Type.Array(scalarRef, { minItems: 1 }), {
      description:
        "A per-row call's values are left out when its answer's data holds one of these values at a pointer (ejabberd's get_last says \"Registered but didn't login\" beside a time that is no login).",
    }),
  ),
  fromList: Type.Optional(
    constOf(true, {
      description:
        "A detail read out of the list's whole answer (a list call with `whole`): the row with that id, then the detail's own per-row calls.",
    }),
  ),
  service: Type.Optional(
    Type.String({
      description:
        "The name of a service of the map's services whose base URL this call goes to; absent: CHAT_BACKEND_URL.",
      pattern: '^[A-Za-z][A-Za-z0-9_-]*$',
    }),
  ),
  generate: Type.Optional(
    Type.Unsafe<Record<string, Static<typeof generatedValue>>>({
      description:
        "Values made afresh for this call, added to the console's parameters under these names before they are mapped.",
      type: 'object',
      propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]*$' },
      additionalProperties: ref('generatedValue', generatedValue),
    }),
  ),
};

/** A call as the map binds it; `bulk` (a selection's call) and `also` (further calls) are calls too. */
export type CallMap = Static<TObject<typeof callMembers>> & { bulk?: CallMap; also?: CallMap[]; rows?: CallMap[] };
const callRef = Type.Unsafe<CallMap>({ $ref: '#/definitions/call' });
const also = Type.Array(callRef, {
  description:
    "Further backend calls made for the same console call, in order, their answers merged; the first refusal stops the rest: a settings screen read or saved over two calls, statistics or figures from several calls, a record created or deleted over several calls (with `each`, per id). Settings, statistics, a list's detail, create and delete, and the console's own calls only.",
  minItems: 1,
});

export const call = closed({
  ...callMembers,
  bulk: Type.Optional(
    Type.Unsafe<CallMap>({
      description:
        "Actions only: the call sent instead when the console sends a selection ({ids}); members it leaves out are the row call's.",
      $ref: '#/definitions/call',
    }),
  ),
  also: Type.Optional(also),
  rows: Type.Optional(
    Type.Array(callRef, {
      description:
        "Per-row calls: made for each row the console shows (a page's rows, a record), at most a few at a time and cached; their placeholders name the row's console keys. What `set` and the answer's relations read is added to the row. A per-row call that fails leaves its values out of that row.",
      minItems: 1,
    }),
  ),
});

/** Members an own call shares with a screen's call, written once there and named by `$ref`. */
const OWN_CALL_MEMBERS = [
  'unsupported',
  'method',
  'path',
  'in',
  'params',
  'body',
  'dates',
  'extra',
  'answer',
  'template',
  'set',
  'count',
] as const;
const shared = Object.fromEntries(
  OWN_CALL_MEMBERS.map((name) => [name, Type.Optional(ref(`call/properties/${name}`, callMembers[name]))]),
) as {
  [K in (typeof OWN_CALL_MEMBERS)[number]]: (typeof callMembers)[K];
};

/**
 * One of the console's own calls (OWN_CALLS): a call's members, and the fields of its body and
 * answer (their kinds told from their bindings, as a relation's). No sort and no selection.
 */
export const ownCall = closed({
  ...shared,
  fields: Type.Optional(
    fieldsOf(
      "Bindings of the call's body and answer members, keyed by the console's names (server/contract/dashboard.ts, calls.ts).",
    ),
  ),
  service: Type.Optional(ref('call/properties/service', callMembers.service)),
  generate: Type.Optional(ref('call/properties/generate', callMembers.generate)),
  also: Type.Optional(Type.Unsafe<CallMap[]>({ $ref: '#/definitions/call/properties/also' })),
});

/** What the backend cannot keep of an action (a ban's reason and time), kept by the gateway (kept-store.ts). */
const kept = closed(
  {
    until: Type.String({ minLength: 1, description: 'The action that ends the keeping (unban).' }),
    inputs: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), { description: "The action's inputs kept (reason)." }),
    ),
    as: Type.String({
      minLength: 1,
      description:
        "The member of the record's detail that shows what was kept: {<inputs>, time, by} (the detail's ban).",
    }),
  },
  {
    description:
      "After the action succeeds the gateway keeps its inputs, the time and the administrator's account per record, until the `until` action succeeds. A record with a kept value reads with the fields the action sets; one without, with those `until` sets.",
  },
);

export const resource = closed({
  unsupported: Type.Optional(constOf(true)),
  fields: Type.Optional(fieldsOf()),
  calls: Type.Optional(
    closed(
      Object.fromEntries(CALL_NAMES.map((name) => [name, Type.Optional(callRef)])) as Record<
        CallName,
        TOptional<typeof callRef>
      >,
    ),
  ),
  actions: Type.Optional(mapOf(callRef)),
  kept: Type.Optional(
    mapOf(kept, {
      description: 'Values the gateway keeps itself for this resource, by the action that starts keeping them.',
    }),
  ),
  keyCase: Type.Optional(ref('keyCase', keyCase)),
  id: Type.Optional(idTypeRef),
  refusals: Type.Optional(ref('refusals', refusals)),
});

export type CallName = (typeof CALL_NAMES)[number];
