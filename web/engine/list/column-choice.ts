import type { FieldDef, ListResource } from '#contract';

/**
 * Which of a list's columns show, and in what order. Kept per browser and per resource, and in the
 * URL (`cols=a,b,c`) when it differs from the declared default. A backend map may drop or add
 * fields at any time, so everything stored or typed is checked against the resource's columns
 * now: unknown keys are ignored, new columns show up at the end, and one column always stays.
 */
export interface ColumnChoice {
  /** Every column, in the order the user chose. */
  order: string[];
  hidden: string[];
}

/** Far more than any resource declares: a longer stored value is not ours. */
const MAX_KEYS = 200;

const isKeyList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.length <= MAX_KEYS && v.every((k) => typeof k === 'string' && k.length <= 100);

export function isColumnChoice(v: unknown): v is ColumnChoice {
  if (typeof v !== 'object' || v === null) return false;
  const { order, hidden } = v as Record<string, unknown>;
  return isKeyList(order) && isKeyList(hidden);
}

export function columnFields(resource: Pick<ListResource, 'fields'>): FieldDef[] {
  return resource.fields.filter((f) => f.column);
}

export const defaultColumns = (resource: Pick<ListResource, 'fields'>): string[] =>
  columnFields(resource).map((f) => f.key);

/** A stored choice made whole against today's columns; `null` is the default. */
export function resolveChoice(all: readonly string[], choice: ColumnChoice | null): ColumnChoice {
  const known = new Set(all);
  const order = [...new Set(choice?.order ?? [])].filter((k) => known.has(k));
  for (const k of all) if (!order.includes(k)) order.push(k);
  let hidden = order.filter((k) => choice?.hidden.includes(k));
  if (hidden.length === order.length) hidden = hidden.slice(1);
  return { order, hidden };
}

export const visibleOf = (choice: ColumnChoice): string[] => choice.order.filter((k) => !choice.hidden.includes(k));

/** The choice a URL's visible list stands for: the hidden columns follow in their default order. */
export function choiceFromVisible(all: readonly string[], visible: readonly string[]): ColumnChoice {
  const hidden = all.filter((k) => !visible.includes(k));
  return resolveChoice(all, { order: [...visible, ...hidden], hidden });
}

/**
 * The choice on screen: the URL's list when a link names one, otherwise this browser's. When both
 * show the same columns the browser's is used, as it also knows where the hidden ones belong.
 */
export function currentChoice(
  all: readonly string[],
  urlVisible: readonly string[] | undefined,
  stored: ColumnChoice | null,
): ColumnChoice {
  const mine = resolveChoice(all, stored);
  if (!urlVisible) return mine;
  const shown = visibleOf(mine);
  return shown.length === urlVisible.length && shown.every((k, i) => k === urlVisible[i])
    ? mine
    : choiceFromVisible(all, urlVisible);
}

/** `cols` as typed or shared: known keys in the order given, repeats dropped; nothing usable is no choice. */
export function parseColumns(raw: string | null, all: readonly string[]): string[] | undefined {
  if (!raw) return undefined;
  const keys = [...new Set(raw.split(',').map((k) => k.trim()))].filter((k) => all.includes(k));
  return keys.length > 0 ? keys : undefined;
}

export const isDefaultColumns = (all: readonly string[], visible: readonly string[]): boolean =>
  visible.length === all.length && visible.every((k, i) => k === all[i]);

export const isDefaultChoice = (all: readonly string[], choice: ColumnChoice): boolean =>
  choice.hidden.length === 0 && isDefaultColumns(all, choice.order);

/** The `cols` value of a visible list, or '' when it is the default and the URL stays plain. */
export function serialiseColumns(all: readonly string[], visible: readonly string[]): string {
  return isDefaultColumns(all, visible) ? '' : visible.join(',');
}

export function moveColumn(choice: ColumnChoice, key: string, by: -1 | 1): ColumnChoice {
  const order = [...choice.order];
  const from = order.indexOf(key);
  const to = from + by;
  if (from < 0 || to < 0 || to >= order.length) return choice;
  [order[from], order[to]] = [order[to]!, order[from]!];
  return { ...choice, order };
}

/** Shows or hides one column; hiding the last visible one is refused. */
export function toggleColumn(choice: ColumnChoice, key: string, show: boolean): ColumnChoice {
  if (show) return { ...choice, hidden: choice.hidden.filter((k) => k !== key) };
  if (choice.hidden.includes(key) || visibleOf(choice).length <= 1) return choice;
  return { ...choice, hidden: [...choice.hidden, key] };
}
