import { RUNNER_LINK_SCHEMES, isLink, type RunnerConfig, type ValidationCode } from '#contract';

/**
 * The runner config form: a draft of strings (what the inputs hold), its validation with the
 * codes of server/contract/validation.ts, and the body saved from it. The limits are the
 * backend's own, checked here so a typo is caught before the round trip.
 */

export const LINK_FIELDS = ['apiUrl', 'websocketUrl', 'fileServerUrl'] as const;
export const NUMBER_FIELDS = ['maxUploadMb', 'messageRetentionDays', 'maxGroupMembers', 'workerCount'] as const;
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const satisfies readonly RunnerConfig['logLevel'][];

export type LinkField = (typeof LINK_FIELDS)[number];
export type NumberField = (typeof NUMBER_FIELDS)[number];
export type ConfigField = keyof RunnerConfig;

export const NUMBER_LIMITS: Record<NumberField, readonly [min: number, max: number]> = {
  maxUploadMb: [1, 2048],
  messageRetentionDays: [1, 3650],
  maxGroupMembers: [3, 100_000],
  workerCount: [1, 64],
};

export type ConfigDraft = Record<ConfigField, string>;

export function draftOf(config: RunnerConfig): ConfigDraft {
  return {
    apiUrl: config.apiUrl,
    websocketUrl: config.websocketUrl,
    fileServerUrl: config.fileServerUrl,
    maxUploadMb: String(config.maxUploadMb),
    messageRetentionDays: String(config.messageRetentionDays),
    maxGroupMembers: String(config.maxGroupMembers),
    workerCount: String(config.workerCount),
    logLevel: config.logLevel,
  };
}

export type ConfigErrors = Partial<Record<ConfigField, ValidationCode>>;

export function validateDraft(draft: ConfigDraft): ConfigErrors {
  const errors: ConfigErrors = {};
  for (const field of LINK_FIELDS) {
    const value = draft[field].trim();
    if (value === '') errors[field] = 'required';
    else if (!isLink(value, RUNNER_LINK_SCHEMES[field])) errors[field] = 'linkFormat';
  }
  for (const field of NUMBER_FIELDS) {
    const text = draft[field].trim();
    const [min, max] = NUMBER_LIMITS[field];
    if (text === '') errors[field] = 'required';
    else if (!/^-?\d+$/.test(text)) errors[field] = /^-?\d*\.\d+$/.test(text) ? 'notInteger' : 'notNumber';
    else if (Number(text) < min) errors[field] = 'tooSmall';
    else if (Number(text) > max) errors[field] = 'tooLarge';
  }
  if (!(LOG_LEVELS as readonly string[]).includes(draft.logLevel)) errors.logLevel = 'notAnOption';
  return errors;
}

/** The fields whose trimmed text differs from the saved config. */
export function changedFields(draft: ConfigDraft, saved: ConfigDraft): ConfigField[] {
  return (Object.keys(saved) as ConfigField[]).filter((k) => draft[k].trim() !== saved[k].trim());
}

/**
 * Only the changed fields are sent (the backend merges partial bodies), so a save never
 * overwrites a field someone else changed meanwhile. Call with a draft that validated.
 */
export function changesToSave(draft: ConfigDraft, saved: ConfigDraft): Partial<RunnerConfig> {
  const body: Partial<Record<ConfigField, string | number>> = {};
  for (const field of changedFields(draft, saved)) {
    body[field] = (NUMBER_FIELDS as readonly string[]).includes(field)
      ? Number(draft[field].trim())
      : draft[field].trim();
  }
  return body as Partial<RunnerConfig>;
}
