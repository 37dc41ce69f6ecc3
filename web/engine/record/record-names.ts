import i18next from 'i18next';
import type { LabelKey, LabelT } from '../../i18n/resources/index.js';
import { actionLabel, doneKey } from '../shared/labels.js';

/** How many records a question or a toast names before it says "and N more". */
export const NAMED_RECORDS = 3;

/** "a, b, c and 2 more": the first few names, so a long selection still fits one line. */
export function namesText(t: LabelT, names: readonly string[], shown = NAMED_RECORDS): string {
  const first = names.slice(0, shown).join(t('engine.nameSeparator'));
  const rest = names.length - shown;
  return rest > 0 ? t('engine.namesAndMore', { names: first, count: rest }) : first;
}

/**
 * The toast after an action: its own past-tense wording where it has one ("Banned sakura2825",
 * `done.<action>`), else the action's name beside the records it ran on.
 */
export function doneText(t: LabelT, action: string, names: string): string {
  const label = actionLabel(t, action);
  if (!names) return t('engine.actionDone', { action: label });
  const own = doneKey(action);
  return i18next.exists(own)
    ? t(own as LabelKey, { name: names })
    : t('engine.actionDoneOn', { action: label, name: names });
}

/** The question before a delete, naming what goes: "Delete 3 records: a, b, c?". */
export function deleteQuestion(t: LabelT, names: readonly string[]): string {
  if (names.length === 1) return t('engine.confirmDeleteOn', { name: names[0]! });
  return t('engine.confirmDeleteNamed', { count: names.length, names: namesText(t, names) });
}
