/**
 * Response schemas of the gateway's own endpoints, which answer in the backend's envelope
 * (`{code, msg, data}`, the contract's Envelope) so the UI reads them like any backend call. The
 * `data` is always a contract schema: this only wraps it, so no route restates a shape (the
 * route-schema test checks it). Serialising through a schema also keeps any field not named there
 * (a hand-edited store file's) out of the answer.
 */
import { Type, type TSchema } from '@sinclair/typebox';

/** `{code, msg}` alone: an answer with nothing to carry. */
export const okAnswer = Type.Object({ code: Type.Integer(), msg: Type.String() });

/** `{code, msg, data}` with `data` the contract's schema. */
export function answerSchema<Data extends TSchema>(data: Data) {
  return Type.Object({ code: Type.Integer(), msg: Type.String(), data });
}

/** The backend's own envelope passed on as it came (a refusal): `data` is whatever it sent. */
export const envelopeAnswer = Type.Object({
  code: Type.Integer(),
  msg: Type.String(),
  data: Type.Optional(Type.Unknown()),
});
