import type { FieldUpload } from './uploads.js';
import type { Permission } from './permissions.js';
import type { FieldRule } from './field-rules.js';

/**
 * The backend contract of the management screens, as
 * plain data. The sandbox backend serves each resource from its definition and the UI declares
 * its screens on the same definitions, so the two cannot drift apart.
 *
 * Calls, under the resource's path (its permission string, plus a segment where two pages share
 * one permission):
 *   GET  {path}/list?pageNum&pageSize&keyword&sort&<filters>  -> {list, total, totals?}
 *        (every list also takes `id`, the one record with that id: how a record's page reads a
 *        record of a resource without a detail call)
 *   GET  {path}/detail?id                                      -> one record
 *   POST {path}/save                                           -> create (no id) or update (id)
 *   POST {path}/delete {ids}
 *   GET  {path}/config, POST {path}/config                     -> settings: one object
 *   POST {path}/<action> {id | ids, ...inputs}                 -> a named action
 */

export type FieldKind =
  | 'text'
  | 'longtext'
  | 'number'
  | 'bytes' // a size in bytes, a whole number; shown as KB, MB, GB
  | 'money' // stored in the smallest unit, shown divided by 100
  | 'switch'
  | 'select'
  | 'link' // must look like scheme://…
  | 'image' // a path on the file server, under /plate/
  | 'datetime' // ISO 8601 text
  | 'date' // YYYY-MM-DD
  | 'ip' // IPv4, IPv6 or either with a /prefix
  | 'lines' // a list of strings, edited one per line
  | 'password'; // write-only

export interface FieldDef {
  key: string;
  kind: FieldKind;
  required?: boolean;
  /** Allowed values of a select. */
  options?: readonly string[];
  /** Bounds of a number or money field (money in the smallest unit). */
  min?: number;
  max?: number;
  /**
   * A number field's decimals (at most 2: a percentage like 1.5), typed in the reader's language's
   * marks ("1,5" in Spanish); more decimals are refused. Without it the input offers whole numbers.
   */
  decimals?: 1 | 2;
  /** The longest text, in characters as the reader sees them (grapheme clusters, text-length.ts). */
  maxLength?: number;
  /** A download link: empty while required gives 下载链接不能为空 rather than the generic message. */
  download?: boolean;
  /** Set by the backend: shown, never sent on save. */
  readOnly?: boolean;
  /** A column of the list table. */
  column?: boolean;
  sortable?: boolean;
  /**
   * A list filter: a select, switch or text filters by equality under its own key; a date or
   * datetime field by range, as `<key>From` and `<key>To` (dates, inclusive).
   */
  filter?: boolean;
  /** Only asked when creating (an initial password). */
  createOnly?: boolean;
  /** Never in a form (counters, derived values). */
  formHidden?: boolean;
  /** The values are resource ids (an operation log's module): shown by the resource's title. */
  resourceIds?: boolean;
  /** A credential rule beyond length: an administrator account name or password (see validation.ts). */
  policy?: 'account' | 'password';
  /**
   * The value can be uploaded rather than typed (an image field always can): the form offers a
   * file, the gateway stores it, and the field gets where it went (a link field the file's
   * address). What the file itself tells fills other fields of the form: its size in bytes, its MD5,
   * and, from a package's name (`chat-5.1.0.apk`), its platform and version while those are empty.
   */
  upload?: FieldUpload;
  /** A new record's form starts at the present moment (a release's publish time); an edit keeps the record's. */
  defaultNow?: boolean;
  /**
   * Digits that name something rather than count it (an id, a build number): shown as written,
   * never with the digit grouping of a quantity (#12345, not #12,345).
   */
  identifier?: boolean;
}

export interface ActionDef {
  /** POST {path}/{name}. */
  name: string;
  /** A row action sends {id}, a bulk action {ids}, a page action neither. */
  target: 'row' | 'bulk' | 'page';
  /** Asks for confirmation first. */
  destructive?: boolean;
  /** Asked in a dialog before running and sent beside the ids. */
  inputs?: readonly FieldDef[];
  /** Offered only on rows whose field holds one of these values. */
  when?: { field: string; in: readonly (string | number | boolean)[] };
  /** The answer's data is shown to the administrator (a generated secret, a tester's findings). */
  showsResult?: boolean;
  /**
   * Moves money: never runs on one click. The UI confirms it in a dialog showing the record's
   * `recordFields` and sends it at most once, however often the button is pressed.
   */
  money?: boolean;
  /**
   * A row action also offered over the selected rows, sent one row at a time ({id} each) so that
   * every refusal is reported against its row rather than failing the whole selection.
   */
  perSelectedRow?: boolean;
  /**
   * The action that reverses this one on the same records (ban: 'unban'). Such an action runs at
   * once, without a confirmation, and the toast that reports it offers to undo it for a few
   * seconds instead. Only named where the reverse asks for no inputs, so the undo can run on a click.
   */
  undo?: string;
  /**
   * The fields the action sets on its records, and to what (ban: `{status: 'banned'}`). The audit
   * trail reads a record before such an action on it and records each of these fields before and
   * after, as it does for an edit.
   */
  sets?: Readonly<Record<string, string | number | boolean>>;
}

interface ResourceBase {
  /** Unique, lower-case; also the i18n namespace of the resource's labels. */
  id: string;
  path: string;
  permission: Permission;
}

export interface ListResource extends ResourceBase {
  kind: 'list';
  fields: readonly FieldDef[];
  keywordFields: readonly string[];
  /** `field` ascending or `-field` descending. */
  defaultSort: string;
  create?: boolean;
  edit?: boolean;
  remove?: boolean;
  detail?: boolean;
  actions?: readonly ActionDef[];
  /** Money fields summed over the whole filtered set, answered as `totals`. */
  totals?: readonly string[];
  /**
   * The fields that tell a person which record this is, the one that names it first (an account,
   * a word): shown in confirmations of the record's actions.
   */
  recordFields?: readonly string[];
  /**
   * Where a money action's amount goes, in words (a bank and its account): a held approval names
   * it, its account numbers masked ("to Santander ...8759"). `account`: the bare account number
   * or address, when the record keeps it apart, to find in those words.
   */
  payee?: { field: string; account?: string };
  /**
   * The field holding a console login account (the administrators list): the signed-in
   * administrator's own row offers no destructive action nor delete, so nobody locks themselves out.
   */
  selfField?: string;
  /** Rules between fields of its form (field-rules.ts). */
  rules?: readonly FieldRule[];
}

export interface SettingsResource extends ResourceBase {
  kind: 'settings';
  fields: readonly FieldDef[];
  /** Page actions beside the form (a test push, a test message). */
  actions?: readonly ActionDef[];
  /** Rules between its fields (field-rules.ts): a minimum not above its maximum. */
  rules?: readonly FieldRule[];
}

/** A form that starts one operation: GET {path}/preview shows what it will do, POST {path}/{run} does it. */
export interface OperationResource extends ResourceBase {
  kind: 'operation';
  inputs: readonly FieldDef[];
  preview?: boolean;
  run: string;
  /** Text the administrator must type to confirm; the backend checks it too (body `confirm`). */
  confirmText?: string;
}

export interface StatisticsResource extends ResourceBase {
  kind: 'statistics';
  /** GET {path}/list?startDate&endDate[&<dimension>] -> {list: [{date, [dimension], ...series}], total}. */
  series: readonly { key: string; kind: 'number' | 'money' }[];
  dimension?: { key: string; options: readonly string[] };
}

export type Resource = ListResource | SettingsResource | StatisticsResource | OperationResource;

export interface ListAnswer<T = Record<string, unknown>> {
  list: T[];
  total: number;
  totals?: Record<string, number>;
}

/** The list filter every list answers: exactly the record with this id (`GET {path}/list?id=`). */
export const RECORD_ID_FILTER = 'id';

export function resourceCalls(resource: Pick<ResourceBase, 'path'>) {
  return {
    list: `${resource.path}/list`,
    detail: `${resource.path}/detail`,
    save: `${resource.path}/save`,
    remove: `${resource.path}/delete`,
    config: `${resource.path}/config`,
    preview: `${resource.path}/preview`,
    action: (name: string) => `${resource.path}/${name}`,
  };
}

/** The fields a create or edit form shows. */
export function formFields(resource: { fields: readonly FieldDef[] }, mode: 'create' | 'edit'): FieldDef[] {
  return resource.fields.filter((f) => !f.readOnly && !f.formHidden && (mode === 'create' || !f.createOnly));
}
