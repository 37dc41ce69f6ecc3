/**
 * Response schemas of the gateway's own endpoints, which answer in the backend's envelope
 * (`{code, msg, data}`) so the UI reads them like any backend call. Serialising through a schema
 * also keeps any field not named here (a hand-edited store file's) out of the answer.
 */

/** `{code, msg}` alone: an answer with nothing to carry. */
export const okAnswer = {
  type: 'object',
  required: ['code', 'msg'],
  properties: { code: { type: 'integer' }, msg: { type: 'string' } },
} as const;

/** `{code, msg, data}` with `data` as given. */
export function answerSchema<const Data extends object>(data: Data) {
  return {
    type: 'object',
    required: ['code', 'msg', 'data'],
    properties: { ...okAnswer.properties, data },
  } as const;
}

/** `data: {list}` of `items`; with `paged`, the `total` of every page as well; `extra`: more members of `data`. */
export function listAnswerSchema<const Items extends object>(
  items: Items,
  { paged = false, extra = {} }: { paged?: boolean; extra?: Record<string, object> } = {},
) {
  return answerSchema({
    type: 'object',
    required: paged ? ['list', 'total'] : ['list'],
    properties: { ...(paged ? { total: { type: 'integer' } } : {}), list: { type: 'array', items }, ...extra },
  });
}
