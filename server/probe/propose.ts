import { OWN_CALLS, RESOURCES, type Resource } from '../contract/index.js';
import { formatPointer } from '../backend-map/pointer.js';
import { KeyCaseRule } from '../backend-map/key-case.js';
import type { AuthMap, BackendMapFile, CallMap, FieldMap, KeyCase, ResourceMap } from '../backend-map/types.js';
import { readBackendJson } from '../lib/backend-json.js';
import type { Upstream } from '../lib/upstream.js';
import type { SessionCredentials } from '../backend-map/auth.js';
import { answeredFields } from './checks.js';
import { envelopeAround, keyCaseOf, readField, readListAnswer, type ListShape } from './forms.js';
import { findLogin, flat, matchFields, matchParam, matchResources, type MatchedCalls } from './names.js';
import { propertiesOf, type ApiDocument, type Operation } from './openapi.js';

/**
 * A starting map for a backend the console has never seen, from its OpenAPI document and its
 * answers: the login and token travel the document describes, the envelope, key case, times,
 * money and enums its answers show, and its paths and members matched to the contract's by name.
 * What it cannot tell is written as `questions` (schema.ts), each at the place it concerns.
 */

type Row = Record<string, unknown>;
const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Question {
  at: string;
  ask: string;
}

/** A path of the document with its parameter named `{id}`, as a map writes it. */
const withId = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z_]+/g, '{id}');

/** The pointer of the first member (depth first, three levels) whose flat name is one of `names`. */
function findMember(json: unknown, names: string[], path: string[] = []): string | null {
  if (!isRow(json) || path.length > 3) return null;
  for (const [key, value] of Object.entries(json))
    if (names.includes(flat(key)) && (typeof value === 'string' || typeof value === 'number'))
      return formatPointer([...path, key]);
  for (const [key, value] of Object.entries(json)) {
    const found = findMember(value, names, [...path, key]);
    if (found) return found;
  }
  return null;
}

const ACCOUNT_NAMES = ['account', 'username', 'loginname', 'user', 'login', 'email', 'phone', 'mobile'];
const PASSWORD_NAMES = ['password', 'passwd', 'pwd', 'pass'];
const CODE_NAMES = ['code', 'otp', 'totp', 'otpcode', 'googlecode', 'mfacode', 'verifycode'];
const TOKEN_NAMES = ['token', 'accesstoken', 'jwt', 'admintoken', 'authtoken', 'sessiontoken', 'accesstoken'];
const USER_ID_NAMES = ['userid', 'adminid', 'adminuserid', 'uid', 'id', 'account', 'username'];

/**
 * The document's login as a map's `auth`, its answer's token and user id found in a real login's
 * answer. Null when the document has no login call (the probe then logs in the contract's way).
 */
export async function proposeAuth(
  doc: ApiDocument,
  upstream: Upstream,
  form: { account: string; password: string; code?: string },
  questions: Question[],
): Promise<{ auth: AuthMap; envelope: BackendMapFile['answer'] | null } | null> {
  const login = findLogin(doc.operations);
  if (!login) return null;
  const pick = (names: string[]) => login.body.find((b) => names.includes(flat(b)));
  const account = pick(ACCOUNT_NAMES) ?? 'account';
  const password = pick(PASSWORD_NAMES) ?? 'password';
  const code = pick(CODE_NAMES);
  const body: Row = { [account]: form.account, [password]: form.password };
  if (code !== undefined) body[code] = form.code ?? '';
  const text = login.form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body);
  const contentType = login.form ? 'application/x-www-form-urlencoded' : 'application/json';
  const raw = await upstream.request(login.path, { method: 'POST', rawBody: { contentType, text } });
  const answer = await readBackendJson(upstream.options.decoder, raw, 'POST', login.path);
  const token = findMember(answer, TOKEN_NAMES);
  const userId = findMember(answer, USER_ID_NAMES);
  if (!token || !userId) return null;
  const envelope = envelopeOf(envelopeAround(answer, token.split('/').slice(1)));
  if (!doc.token)
    questions.push({
      at: '/auth/token',
      ask: 'the document names no security scheme: is the token sent as "Authorization: Bearer …"?',
    });
  questions.push({
    at: '/auth/login/password',
    ask: 'the password is sent as typed: if the backend compares a digest, set "md5" or "sha256"',
  });
  const auth: AuthMap = {
    login: {
      path: login.path,
      ...(login.form ? { in: 'form' as const } : {}),
      fields: { account, password, ...(code === undefined ? {} : { code }) },
      answer: { token, userId },
    },
    token: doc.token
      ? { headers: [doc.token.header], ...(doc.token.prefix ? { prefix: doc.token.prefix } : {}) }
      : { headers: ['Authorization'], prefix: 'Bearer ' },
  };
  return { auth, envelope };
}

/** The envelope an answer shows: where its code, message and data are, and the code of success. */
export function envelopeOf(shape: Pick<ListShape, 'code' | 'message' | 'data'>): BackendMapFile['answer'] | null {
  if (!shape.code) return null;
  return {
    code: shape.code.at,
    ...(shape.message ? { message: shape.message } : {}),
    data: shape.data,
    success: [shape.code.value],
  };
}

/** What a list read showed of one resource: its map entry and the key case of its members. */
interface Reading {
  entry: ResourceMap;
  keyCase: KeyCase | null;
  localTime: boolean;
}

/** One list resource's entry from its matched operations and one page of its rows. */
function listEntry(
  resource: Extract<Resource, { kind: 'list' }>,
  found: MatchedCalls,
  shape: ListShape | null,
  mapCase: KeyCase | null,
  questions: Question[],
): Reading {
  const at = (...rest: string[]) => formatPointer(['resources', resource.id, ...rest]);
  const list = found.list!;
  const params: Record<string, string> = {};
  for (const name of ['pageNum', 'pageSize', 'keyword'] as const) {
    const param = matchParam(name, list.query);
    if (param !== undefined && param !== name) params[name] = param;
  }
  if (!params.pageNum && !list.query.includes('pageNum'))
    questions.push({
      at: at('calls', 'list', 'params'),
      ask: 'no paging parameter was recognised: name the page and size parameters',
    });
  if (params.pageNum && /^(page|p|pageindex)$/i.test(flat(params.pageNum)))
    questions.push({
      at: at('calls', 'list', 'firstPage'),
      ask: `does ${params.pageNum} count from 1 (as written) or 0 ("firstPage": 0)?`,
    });
  if (matchParam('sort', list.query))
    questions.push({
      at: at('calls', 'list', 'sort'),
      ask: 'the list takes a sort parameter: write its form (sort=-field, or two parameters in "sort")',
    });
  const listCall: CallMap = { path: list.path };
  if (Object.keys(params).length) listCall.params = params;
  const entry: ResourceMap = { calls: { list: listCall } };
  const calls = entry.calls!;
  let keyCase: KeyCase | null = null;
  let localTime = false;
  if (shape) {
    listCall.answer = { list: shape.list, ...(shape.total ? { total: shape.total } : {}) };
    if (!shape.total)
      questions.push({
        at: at('calls', 'list', 'answer', 'total'),
        ask: 'no total was found beside the rows: where is it?',
      });
    keyCase = keyCaseOf(shape.rows);
    const rule = new KeyCaseRule(keyCase ?? 'camel');
    const members = [...new Set(shape.rows.flatMap((r) => Object.keys(r)))];
    const fieldList = answeredFields(resource, new Set());
    const matched = matchFields(
      fieldList.map((f) => f.key),
      members,
    );
    const fields: Record<string, FieldMap> = {};
    for (const field of fieldList) {
      const member = matched.get(field.key);
      if (member === undefined) {
        fields[field.key] = { absent: true };
        questions.push({
          at: at('fields', field.key),
          ask: `no member of the answer looked like ${field.key}: name it ("name"), or keep it absent`,
        });
        continue;
      }
      const reading = readField(
        field,
        shape.rows.map((r) => r[member]),
      );
      const map: FieldMap = { ...(member === rule.theirs(field.key) ? {} : { name: member }), ...reading.map };
      if (field.key === 'id' && shape.rows.some((r) => typeof r[member] === 'string')) {
        entry.id = 'string';
        delete map.asText;
      }
      if (Object.keys(map).length) fields[field.key] = map;
      if (reading.question) questions.push({ at: at('fields', field.key), ask: reading.question });
      localTime ||= reading.localTime === true;
    }
    // The backend's other members: shown on the record page, for the operator to keep or drop.
    const used = new Set(matched.values());
    for (const member of members) {
      if (used.has(member)) continue;
      const values = shape.rows.map((r) => r[member]).filter((v) => v !== null && v !== undefined);
      const v = values[0];
      if (v === undefined || typeof v === 'object') continue;
      const key = rule.ours(member);
      if (fields[key] || resource.fields.some((f) => f.key === key)) continue;
      // A time is shown as one, read in the form its text has.
      const time = typeof v === 'string' ? readField({ key, kind: 'datetime' }, [v]) : null;
      const timed = time && !time.question ? time : null;
      const shown = typeof v === 'boolean' ? 'switch' : typeof v === 'number' ? 'number' : timed ? 'datetime' : 'text';
      localTime ||= timed?.localTime === true;
      fields[key] = {
        ...(rule.theirs(key) === member ? {} : { name: member }),
        shown,
        ...(timed ? timed.map : {}),
      };
    }
    if (Object.keys(fields).length) entry.fields = fields;
    // Keys written in another case than the map's: this entry says its own.
    if (keyCase !== mapCase) entry.keyCase = keyCase ?? 'camel';
  } else {
    questions.push({
      at: at('calls', 'list'),
      ask: 'the list answer showed no rows array: set answer.list and answer.total, and the fields',
    });
  }
  if (resource.detail) {
    if (found.detail) {
      calls.detail = { path: withId(found.detail.path) };
      // The users' and groups' screens read their record under a name (contract UserDetail, GroupDetail).
      if (resource.id === 'users' || resource.id === 'groups')
        calls.detail.answer = { record: '', recordAs: resource.id === 'users' ? '/user' : '/group' };
    } else calls.detail = { unsupported: true };
  }
  if (resource.create) calls.create = found.create ? bodyCall(found.create, found.create.path) : { unsupported: true };
  if (resource.edit)
    calls.update = found.update ? bodyCall(found.update, withId(found.update.path)) : { unsupported: true };
  if (resource.remove)
    calls.delete = found.delete
      ? { method: 'DELETE', path: withId(found.delete.path), each: true }
      : { unsupported: true };
  const actions: Record<string, CallMap> = {};
  for (const action of resource.actions ?? []) {
    if (actions[action.name]) continue;
    const op = found.actions[action.name];
    if (!op) {
      actions[action.name] = { unsupported: true };
      continue;
    }
    const call = bodyCall(op, withId(op.path));
    const inputs = (action.inputs ?? []).map((i) => i.key);
    const renames = matchFields(inputs, op.body);
    for (const input of inputs) {
      const name = renames.get(input);
      if (name !== undefined && name !== new KeyCaseRule(keyCase ?? mapCase ?? 'camel').theirs(input))
        (call.params ??= {})[input] = name;
      if (name === undefined && op.body.length > 0)
        questions.push({
          at: at('actions', action.name),
          ask: `the document's body has no member like ${input}: ${op.body.join(', ')}`,
        });
    }
    // Over a selection, one request per row: the document shows no call for several.
    if ((resource.actions ?? []).some((a) => a.name === action.name && a.target === 'bulk')) call.bulk = { each: true };
    actions[action.name] = call;
  }
  if (Object.keys(actions).length) entry.actions = actions;
  return { entry, keyCase, localTime };
}

function bodyCall(op: Operation, path: string): CallMap {
  return { method: op.method, path, ...(op.form ? { in: 'form' as const } : {}) };
}

export interface ProposeInput {
  doc: ApiDocument;
  upstream: Upstream;
  session: SessionCredentials;
  /** The map's envelope so far (the one seen at login, or the --map's own): kept over what the lists show. */
  envelope: BackendMapFile['answer'] | undefined;
  questions: Question[];
}

/** The resources and envelope of a starting map: every list and settings screen the document serves, the rest unsupported. */
export async function proposeResources(
  input: ProposeInput,
): Promise<Pick<BackendMapFile, 'answer' | 'keyCase' | 'resources'>> {
  const { doc, upstream, session, questions } = input;
  const matched = matchResources(doc.operations);
  const resources: Record<string, ResourceMap> = {};
  let answer: BackendMapFile['answer'] | null = input.envelope ?? null;
  let keyCase: KeyCase | null | undefined;
  let localTime = false;
  const read = async (op: Operation, query: Row) => {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const path = [...search].length ? `${op.path}?${search.toString()}` : op.path;
    const raw = await upstream.request(path, { session, method: 'GET' });
    return raw.status >= 400 ? null : readBackendJson(upstream.options.decoder, raw, 'GET', path).catch(() => null);
  };
  for (const resource of RESOURCES) {
    const found = matched.get(resource.id);
    if (!found || (resource.kind !== 'list' && resource.kind !== 'settings')) {
      resources[resource.id] = { unsupported: true };
      continue;
    }
    if (resource.kind === 'settings') {
      resources[resource.id] = settingsEntry(resource, found, await read(found.config!, {}), answer, questions);
      continue;
    }
    const list = found.list!;
    const page = matchParam('pageNum', list.query);
    const size = matchParam('pageSize', list.query);
    const json = await read(list, { ...(page ? { [page]: 1 } : {}), ...(size ? { [size]: 5 } : {}) });
    const shape = readListAnswer(json);
    if (shape && !answer) answer = envelopeOf(shape);
    if (shape && keyCase === undefined) keyCase = keyCaseOf(shape.rows);
    const reading = listEntry(resource, found, shape, keyCase ?? null, questions);
    localTime ||= reading.localTime;
    resources[resource.id] = reading.entry;
  }
  if (!answer && input.envelope === undefined)
    questions.push({ at: '/answer', ask: 'no code was found in the answers: where does the backend say success?' });
  if (localTime)
    questions.push({
      at: '/timeZone',
      ask: 'the backend writes times without a zone: set its UTC offset ("+08:00"); UTC until then',
    });
  return { ...(answer && !input.envelope ? { answer } : {}), ...(keyCase ? { keyCase } : {}), resources };
}

function settingsEntry(
  resource: Extract<Resource, { kind: 'settings' }>,
  found: MatchedCalls,
  json: unknown,
  answer: BackendMapFile['answer'] | null,
  questions: Question[],
): ResourceMap {
  const at = (...rest: string[]) => formatPointer(['resources', resource.id, ...rest]);
  const calls: ResourceMap['calls'] = { config: { path: found.config!.path } };
  calls.saveConfig = found.saveConfig ? bodyCall(found.saveConfig, found.saveConfig.path) : { unsupported: true };
  const dataKey = answer?.data?.slice(1);
  const data = isRow(json) ? (dataKey && isRow(json[dataKey]) ? json[dataKey] : json) : null;
  const members = data ? Object.keys(data) : Object.keys(propertiesOf(found.config!.answer));
  const matched = matchFields(
    resource.fields.map((f) => f.key),
    members,
  );
  const fields: Record<string, FieldMap> = {};
  for (const field of resource.fields) {
    const member = matched.get(field.key);
    if (member === undefined) {
      fields[field.key] = { absent: true };
      continue;
    }
    const reading = readField(field, data ? [data[member]] : []);
    const map: FieldMap = { ...(member === field.key ? {} : { name: member }), ...reading.map };
    if (Object.keys(map).length) fields[field.key] = map;
    if (reading.question) questions.push({ at: at('fields', field.key), ask: reading.question });
  }
  return { fields, calls };
}

/** Every console call outside the screens, unsupported: a foreign backend has none of them until bound. */
export function unsupportedConsole(): NonNullable<BackendMapFile['console']> {
  return { calls: Object.fromEntries(OWN_CALLS.map((name) => [name, { unsupported: true as const }])) };
}
