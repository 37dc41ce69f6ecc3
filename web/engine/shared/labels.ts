import { dynamicLabel, type LabelKey, type LabelT } from '../../i18n/resources/index.js';
import { humanise } from '../../lib/humanise.js';
import { LINK_MAX_LENGTH } from '#contract/validation';
import { formatCount } from '../../lib/format.js';
import { language } from '../../lib/settings.js';
import type { FieldErrorCode } from '../form/form-values.js';

import { actionKey, fieldKey, optionKey, resourceKey, resultKey } from './label-keys.js';

/** Where each resource label lives (label-keys.ts); the i18n test walks RESOURCES with these same functions. */
export { actionKey, doneKey, fieldKey, optionKey, resourceKey, resultKey } from './label-keys.js';

export const VALIDATION_KEYS: Record<FieldErrorCode, LabelKey> = {
  required: 'validation.required',
  linkFormat: 'validation.linkFormat',
  linkTooLong: 'validation.linkTooLong',
  downloadLinkEmpty: 'validation.downloadLinkEmpty',
  tooLong: 'validation.tooLong',
  notNumber: 'validation.notNumber',
  notInteger: 'validation.notInteger',
  tooSmall: 'validation.tooSmall',
  tooLarge: 'validation.tooLarge',
  notAnOption: 'validation.notAnOption',
  ipFormat: 'validation.ipFormat',
  dateFormat: 'validation.dateFormat',
  moneyDecimals: 'validation.moneyDecimals',
  moneyDecimalMark: 'validation.moneyDecimalMark',
  moneyAmbiguous: 'validation.moneyAmbiguous',
  accountFormat: 'validation.accountFormat',
  passwordWeak: 'validation.passwordWeak',
  tooManyDecimals: 'validation.tooManyDecimals',
  exceedsField: 'validation.exceedsField',
};

/** `vars` fills the messages that quote the reader's text (an amount's suggestion or example). */
export function validationMessage(t: LabelT, code: FieldErrorCode, vars?: Record<string, string>): string {
  // The link limit is the contract's: the message names it in the reader's digits.
  if (code === 'linkTooLong')
    return t(VALIDATION_KEYS[code], { max: formatCount(LINK_MAX_LENGTH, language.value), ...vars });
  return t(VALIDATION_KEYS[code], vars);
}

// A label nobody wrote yet (a new field, a new screen) reads as its humanised key: `maxCount` "Max count".
export const fieldLabel = (t: LabelT, key: string) => dynamicLabel(t, fieldKey(key), humanise(key));
// An option's value may come from a newer backend: shown as sent, so the administrator can name it.
export const optionLabel = (t: LabelT, field: string, value: string | number | boolean) =>
  dynamicLabel(t, optionKey(field, value), String(value));
export const actionLabel = (t: LabelT, name: string) => dynamicLabel(t, actionKey(name), humanise(name));
export const resourceTitle = (t: LabelT, id: string) => dynamicLabel(t, resourceKey(id), humanise(id));
export const resultLabel = (t: LabelT, key: string) => dynamicLabel(t, resultKey(key), key);

/**
 * An operation log's module is the id of the resource acted on, or a module of its own (sign-in):
 * its own label first, then the resource's title, then the raw key a newer backend may send.
 */
export const moduleKey = (key: string) => `module.${key}`;
export const moduleLabel = (t: LabelT, key: string) =>
  dynamicLabel(t, moduleKey(key), dynamicLabel(t, resourceKey(key), key));
