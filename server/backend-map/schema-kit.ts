import { Type, type SchemaOptions, type Static, type TSchema, type TUnion } from '@sinclair/typebox';

/**
 * TypeBox builders that write the JSON Schema keywords the map's schema has always used (`enum`,
 * `const`, `oneOf`, `additionalProperties` maps, `$ref` into `definitions`), where TypeBox's own
 * would write others (`anyOf` of literals, `patternProperties`): the file editors and the
 * bindings read stays as it was, and the load errors (load.ts describeError) keep their keywords.
 */

/** One of these values (`enum`). */
export function enumOf<const T extends readonly (string | number)[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ ...options, enum: [...values] });
}

/** Exactly this value (`const`): a switch written only to say true, a fixed word. */
export function constOf<const T extends string | number | boolean>(value: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T>({ ...options, const: value });
}

/** An object of free names whose values all have one shape (`additionalProperties`). */
export function mapOf<T extends TSchema>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<Record<string, Static<T>>>({ ...options, type: 'object', additionalProperties: values });
}

/** Exactly one of these shapes (`oneOf`). */
export function oneOf<T extends TSchema[]>(schemas: [...T], options: SchemaOptions = {}) {
  return Type.Unsafe<Static<TUnion<T>>>({ ...options, oneOf: schemas });
}

/** An object with only these members. */
export function closed<T extends Parameters<typeof Type.Object>[0]>(properties: T, options: SchemaOptions = {}) {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

/** A `$ref` to a definition (or a member of one, "call/properties/method"), typed as what it names. */
export function ref<T extends TSchema>(path: string, _named: T, options: SchemaOptions = {}) {
  return Type.Unsafe<Static<T>>({ ...options, $ref: `#/definitions/${path}` });
}

/** A JSON value of one or more types (`type: [...]`). */
export function typesOf<T>(types: string[]) {
  return Type.Unsafe<T>({ type: types });
}
