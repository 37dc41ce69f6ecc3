import type { Static } from '@sinclair/typebox';
import type {
  auth,
  clock,
  generated,
  login,
  permissionList,
  permissions,
  service,
  signer,
  travel,
} from './schema-auth.js';
import type {
  callMembers,
  envelope,
  field,
  generatedValue,
  hashName,
  idType,
  keyCase,
  ownCall,
  relation,
  resource,
  scalar,
  timeFormat,
} from './schema-call.js';
import type { backendMapSchema, consoleSection } from './schema.js';

/**
 * The backend map as written in its JSON file: every type here is read off the schema (schema.ts,
 * schema-call.ts, schema-auth.ts), so a member is added there once and both the check at start and
 * the code that reads it see it.
 */

export type { CallMap, CallName, Template } from './schema-call.js';
export { CALL_NAMES } from './schema-call.js';

export type Scalar = Static<typeof scalar>;
export type KeyCase = Static<typeof keyCase>;
export type IdType = Static<typeof idType>;
export type TimeFormat = Static<typeof timeFormat>;
export type HashName = Static<typeof hashName>;
export type GeneratedValue = Static<typeof generatedValue>;
export type EnvelopeMap = Static<typeof envelope>;
export type FieldMap = Static<typeof field>;
export type RelationMap = Static<typeof relation>;
type Members = { [K in keyof typeof callMembers]?: Static<(typeof callMembers)[K]> };
export type AnswerMap = NonNullable<Members['answer']>;
/** A backend parameter set to the time the call is made. */
export type NowValue = NonNullable<Members['now']>[string];
/** Codes made afresh for each of a repeated call's requests. */
export type RepeatMap = NonNullable<Members['repeat']>;
export type OwnCallMap = Static<typeof ownCall>;
export type ConsoleMap = Static<typeof consoleSection>;
export type ResourceMap = Static<typeof resource>;
export type ServiceMap = Static<typeof service>;
export type TravelMap = Static<typeof travel>;
export type LoginMap = Static<typeof login>;
export type PasswordTransform = NonNullable<LoginMap['password']>;
export type GeneratedMap = Static<typeof generated>;
export type SignerMap = Static<typeof signer>;
export type ClockMap = Static<typeof clock>;
export type AuthMap = Static<typeof auth>;
export type PermissionList = Static<typeof permissionList>;
export type PermissionsMap = Static<typeof permissions>;
export type BackendMapFile = Static<typeof backendMapSchema>;
