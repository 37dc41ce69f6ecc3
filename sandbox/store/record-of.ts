import type { FieldKind } from '../../server/contract/index.js';

/**
 * A record's type read off its resource's declaration, so a table's row type is never restated by
 * hand beside the fields that define it. Each field kind maps to the value the wire carries; a
 * select to the union of its options; a field the administrator may leave empty that has no
 * empty text (a time, a count) to its value or null. What the declaration cannot say (a backend-set
 * time that starts out null, a column the list never shows) is given as `Extra`, which wins.
 */

interface KindValues {
  text: string;
  longtext: string;
  number: number;
  bytes: number;
  money: number;
  switch: boolean;
  link: string;
  image: string;
  datetime: string;
  date: string;
  ip: string;
  lines: string[];
  password: string;
}

/** Kinds whose empty value is null rather than an empty text. */
type NullWhenEmpty = 'bytes' | 'datetime' | 'date';

interface AnyField {
  key: string;
  kind: FieldKind;
}

type ValueOf<F> = F extends { kind: 'select'; options: readonly (infer O)[] }
  ? O
  : F extends { kind: 'lines'; options: readonly (infer O)[] }
    ? O[]
    : F extends { kind: infer K extends Exclude<FieldKind, 'select'> }
      ? KindValues[K]
      : string;

type Optional<F> = F extends { required: true }
  ? false
  : F extends { readOnly: true }
    ? false
    : F extends { kind: NullWhenEmpty }
      ? true
      : false;

type FieldValue<F> = Optional<F> extends true ? ValueOf<F> | null : ValueOf<F>;

type Flatten<T> = { [K in keyof T]: T[K] };

export type RecordOf<R extends { fields: readonly AnyField[] }, Extra extends object = Record<never, never>> = Flatten<
  Omit<{ -readonly [F in R['fields'][number] as F['key']]: FieldValue<F> }, keyof Extra> & Extra
>;
