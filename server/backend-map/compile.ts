import type { FieldKind } from '../contract/index.js';
import type { Bound, Envelope, Method, Relation } from './bound.js';
import { FieldBinding, inferredKind, type BindingRules } from './fields.js';
import { parsePointer } from './pointer.js';
import type { CallMap, EnvelopeMap, FieldMap, RelationMap } from './types.js';

/**
 * Compiling one call of a map, shared by the management screens' calls (engine.ts) and the
 * console's own calls (own-calls.ts): the envelope, the answer's pointers, refusal codes and
 * relations come out the same whichever section wrote the call.
 */

/** The map's top-level envelope with every pointer filled in; `status` stays optional (most backends have an envelope). */
export type BaseEnvelope = Required<Omit<EnvelopeMap, 'status'>> & Pick<EnvelopeMap, 'status'>;

export const DEFAULT_ENVELOPE: BaseEnvelope = {
  code: '/code',
  message: '/msg',
  data: '/data',
  success: [200],
};

export function envelopeOf(base: BaseEnvelope, own: EnvelopeMap | undefined): Envelope {
  const byStatus = (own?.status ?? base.status) === true;
  // Without an envelope the data is the whole body, unless the map points elsewhere.
  const data = own?.data ?? (byStatus && base.data === DEFAULT_ENVELOPE.data ? '' : base.data);
  return {
    code: parsePointer(own?.code ?? base.code),
    message: parsePointer(own?.message ?? base.message),
    data: parsePointer(data),
    success: new Set((own?.success ?? base.success).map(String)),
    byStatus,
  };
}

/** The record a relation belongs to: its fields' kinds and bindings, and the rules they follow. */
export interface RecordFields {
  kinds: ReadonlyMap<string, FieldKind>;
  maps: Record<string, FieldMap>;
  rules: BindingRules;
}

/** A record or list inside an answer's data, compiled under its console key. */
export function compileRelation(key: string, relation: RelationMap, record: RecordFields): Relation {
  const own = relation.fields ?? {};
  const kinds = new Map(relation.recordFields ? record.kinds : []);
  for (const [field, map] of Object.entries(own)) if (!kinds.has(field)) kinds.set(field, inferredKind(map));
  const maps = relation.recordFields ? { ...record.maps, ...own } : own;
  const fields = new FieldBinding(kinds, maps, {
    ...record.rules,
    id: relation.recordFields ? record.rules.id : undefined,
  });
  const at =
    relation.at === undefined
      ? [record.rules.keyCase ? record.rules.keyCase.theirs(key) : key]
      : parsePointer(relation.at);
  return { key, at, fields };
}

/**
 * One call compiled: `start` is where the console's own contract sends it (the map's method and
 * path win), `refusals` the section's codes (the call's own win).
 */
export function compileCall(
  base: BaseEnvelope,
  call: CallMap | undefined,
  start: { method: Method; path: string },
  refusals: Record<string, number>,
  record: RecordFields,
): Bound {
  const method = call?.method ?? start.method;
  const path = call?.path ?? start.path;
  const envelope = envelopeOf(base, call?.answer);
  const answer = call?.answer ?? {};
  const also = (call?.also ?? []).map((part) => compileCall(base, part, start, refusals, record));
  // A per-row call is POSTed unless it says otherwise (a read-only API taking JSON bodies).
  const rows = (call?.rows ?? []).map((part) =>
    compileCall(base, part, { method: 'POST', path: part.path ?? start.path }, refusals, record),
  );
  return {
    rows,
    service: call?.service ?? null,
    days: Object.entries(answer.days ?? {}).map(([key, at]) => ({ key, at: parsePointer(at) })),
    result: answer.result ?? null,
    also,
    refusals: new Map(Object.entries({ ...refusals, ...answer.refusals })),
    recordAs: answer.recordAs === undefined ? null : parsePointer(answer.recordAs),
    relations: Object.entries(answer.relations ?? {}).map(([key, relation]) => compileRelation(key, relation, record)),
    shaped:
      answer.record !== undefined ||
      answer.recordAs !== undefined ||
      answer.relations !== undefined ||
      answer.result !== undefined,
    call: call ?? {},
    method,
    path,
    placeholders: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
    envelope,
    list: answer.list === undefined ? [...envelope.data, 'list'] : parsePointer(answer.list),
    lift: (answer.lift ?? []).map(parsePointer),
    total: answer.totalHeader
      ? null
      : answer.total === undefined
        ? [...envelope.data, 'total']
        : parsePointer(answer.total),
    totalHeader: answer.totalHeader?.toLowerCase() ?? null,
    totals: answer.totals === undefined ? [...envelope.data, 'totals'] : parsePointer(answer.totals),
    record: parsePointer(answer.record ?? ''),
  };
}
