import { useId, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { ACCOUNT_PATTERN, LINK_MAX_LENGTH, graphemeCount, isStrongPassword, type FieldDef } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';
import type { Language } from '../../lib/language.js';
import { language } from '../../lib/settings.js';
import { formatCount } from '../../lib/format.js';
import type { Density } from '../../ui/density.js';
import { isChoiceList, type DraftValue, type FieldErrorCode } from './form-values.js';
import { fieldLabel, optionLabel, validationMessage } from '../shared/labels.js';
import { formatMoneyIn, readMoney } from '../shared/money.js';
import { Thumbnail } from '../shared/value-cell.js';
import { offersCall } from '../../api/session.js';
import { UploadControl } from './upload-control.js';
import { packageFacts, uploadOf, uploadedValue } from './upload-fields.js';

export interface FieldInputProps {
  field: FieldDef;
  value: DraftValue | undefined;
  onChange: (value: DraftValue) => void;
  /** The form's verdict on the field; shown in the reader's words. */
  errorCode?: FieldErrorCode | undefined;
  /** For `exceedsField`: the field this one must not be more than, named in the message. */
  errorLimit?: string | undefined;
  t: LabelT;
  density: Density;
  /** Shown instead of the shared field label (an action input with its own wording). */
  label?: string;
  /** A password the backend already holds: empty keeps it. */
  keepsOldSecret?: boolean;
  autoFocus?: boolean;
  /** Sets other fields of the form: what an uploaded file tells of itself (its size, its MD5). */
  /** Fills other fields with what an upload told: `values` always, `ifEmpty` only where still empty. */
  onFill?: (values: Record<string, DraftValue>, ifEmpty?: Record<string, DraftValue>) => void;
}

function hints(field: FieldDef, t: LabelT, keepsOldSecret: boolean, lang: Language): string[] {
  const out: string[] = [];
  const show = (n: number) => (field.kind === 'money' ? formatMoneyIn(n, lang) : String(n));
  if (field.kind === 'money') out.push(t('engine.moneyHint'));
  if (field.kind === 'bytes') out.push(t('engine.bytesHint'));
  if (field.min !== undefined) out.push(t('engine.min', { min: show(field.min) }));
  if (field.max !== undefined) out.push(t('engine.max', { max: show(field.max) }));
  if (field.kind === 'lines' && !field.options) out.push(t('engine.linesHint'));
  if (field.kind === 'image') out.push(t('engine.imagePath'));
  // The rule up front, so nobody learns of the scheme or the limit from a refusal.
  if (field.kind === 'link') out.push(t('engine.linkHint', { max: formatCount(LINK_MAX_LENGTH, lang) }));
  if (field.kind === 'password' && keepsOldSecret) out.push(t('engine.passwordKeep'));
  return out;
}

/** An account or password rule, shown as the administrator types, and whether the text meets it yet. */
function policyState(field: FieldDef, text: string, t: LabelT): { text: string; met: boolean } | null {
  if (field.policy === 'account')
    return { text: validationMessage(t, 'accountFormat'), met: ACCOUNT_PATTERN.test(text) };
  if (field.policy === 'password') return { text: validationMessage(t, 'passwordWeak'), met: isStrongPassword(text) };
  return null;
}

/**
 * Why an amount's text cannot be saved, in words that quote it: the mark to use with the reading
 * it would give, or the form to write it in. Null for an empty or readable amount.
 */
function moneyProblem(t: LabelT, text: string, lang: Language): string | null {
  if (text.trim() === '') return null;
  const reading = readMoney(text, lang);
  if ('cents' in reading) return null;
  if (reading.problem === 'moneyDecimalMark')
    return validationMessage(t, reading.problem, { suggestion: reading.suggestion });
  if (reading.problem === 'moneyAmbiguous')
    return validationMessage(t, reading.problem, { text: text.trim(), example: formatMoneyIn(123456789, lang) });
  return validationMessage(t, reading.problem);
}

/** What an amount's text alone decides: once the text changes, the form's verdict on it is stale. */
const READING_CODES = new Set<FieldErrorCode>(['notNumber', 'moneyDecimals', 'moneyDecimalMark', 'moneyAmbiguous']);

/**
 * The message under a field. An amount's reading problem is worked out from the text as it is now,
 * quoting it, so a verdict given before the administrator changed the text never lingers.
 */
function fieldError(
  t: LabelT,
  field: FieldDef,
  text: string,
  lang: Language,
  code: FieldErrorCode | undefined,
  amountRead: boolean,
  limit: string | undefined,
): string | undefined {
  const message = (c: FieldErrorCode) =>
    c === 'exceedsField' ? validationMessage(t, c, { other: fieldLabel(t, limit ?? '') }) : validationMessage(t, c);
  if (field.kind !== 'money') return code ? message(code) : undefined;
  if (!amountRead && !code) return undefined;
  const reading = moneyProblem(t, text, lang);
  if (reading) return reading;
  return code && !READING_CODES.has(code) ? message(code) : undefined;
}

/** Fields with a length limit show how much of it is used (characters as the reader sees them); never passwords. */
const counted = (field: FieldDef) =>
  field.maxLength !== undefined && (field.kind === 'text' || field.kind === 'longtext');

/** One labelled form control per field kind, with its hint and its validation message. */
export function FieldInput({
  field,
  value,
  onChange,
  errorCode,
  errorLimit,
  t,
  density,
  label,
  keepsOldSecret = false,
  autoFocus,
  onFill,
}: FieldInputProps) {
  useSignals();
  const lang = language.value;
  // An amount is read when it leaves focus: written back in the reader's form, or its problem shown.
  const [amountRead, setAmountRead] = useState(false);
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const text = typeof value === 'string' ? value : '';
  const name = label ?? fieldLabel(t, field.key);
  const hintList = hints(field, t, keepsOldSecret, lang);
  const error = fieldError(t, field, text, lang, errorCode, amountRead, errorLimit);
  const counterId = `${id}-counter`;
  const count = counted(field) ? graphemeCount(text) : null;
  const policy = policyState(field, text, t);
  const policyId = `${id}-policy`;
  const describedBy =
    [hintList.length ? hintId : '', count !== null ? counterId : '', policy ? policyId : '', error ? errorId : '']
      .filter(Boolean)
      .join(' ') || undefined;
  const box = `w-full rounded-md border bg-white ${density.input} ${density.text} ${error ? 'border-red-500' : 'border-slate-300'} focus:outline-2 focus:outline-primary`;
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': field.required || undefined,
    autoFocus,
    'data-field': field.key,
  } as const;

  // One message line under every kind of control, named for the tests and the screen reader alike.
  const errorLine = error && (
    <p id={errorId} role="alert" className="text-sm text-red-600" data-error-for={field.key}>
      {error}
    </p>
  );

  let control;
  switch (field.kind) {
    case 'switch':
      control = (
        <input
          {...common}
          type="checkbox"
          role="switch"
          className="h-5 w-5 accent-primary"
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
        />
      );
      break;
    case 'select':
      control = (
        <select {...common} className={box} value={text} onChange={(e) => onChange(e.target.value)}>
          <option value="">{t('engine.none')}</option>
          {(field.options ?? []).map((o) => (
            <option key={o} value={o}>
              {optionLabel(t, field.key, o)}
            </option>
          ))}
        </select>
      );
      break;
    case 'longtext':
      control = (
        <textarea {...common} className={box} rows={5} value={text} onChange={(e) => onChange(e.target.value)} />
      );
      break;
    case 'lines':
      if (isChoiceList(field)) {
        const chosen = Array.isArray(value) ? value : [];
        return (
          <fieldset className="flex flex-col gap-1" aria-describedby={describedBy} data-field={field.key}>
            <legend className="mb-1 text-sm font-medium text-slate-700">
              {name}
              {field.required && (
                <span className="text-red-600" aria-hidden="true">
                  {' '}
                  *
                </span>
              )}
            </legend>
            <div className="grid max-h-56 grid-cols-1 gap-1 overflow-auto rounded-md border border-slate-200 p-2 sm:grid-cols-2">
              {(field.options ?? []).map((o) => (
                <label key={o} className="flex items-center gap-2 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    className="accent-primary"
                    checked={chosen.includes(o)}
                    onChange={(e) => onChange(e.target.checked ? [...chosen, o] : chosen.filter((c) => c !== o))}
                  />
                  {optionLabel(t, field.key, o)}
                </label>
              ))}
            </div>
            {errorLine}
          </fieldset>
        );
      }
      control = (
        <textarea {...common} className={box} rows={6} value={text} onChange={(e) => onChange(e.target.value)} />
      );
      break;
    case 'number':
    case 'bytes':
      // With decimals, text read with the reader's marks: a number input would take only "1.5", or nothing on a phone's keypad.
      control = field.decimals ? (
        <input
          {...common}
          className={box}
          type="text"
          inputMode="decimal"
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <input
          {...common}
          className={box}
          type="number"
          inputMode="numeric"
          min={field.min}
          max={field.max}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'money':
      control = (
        <input
          {...common}
          className={box}
          type="text"
          inputMode="decimal"
          value={text}
          onChange={(e) => {
            setAmountRead(false);
            onChange(e.target.value);
          }}
          onBlur={() => {
            const reading = text.trim() === '' ? null : readMoney(text, lang);
            if (reading && 'cents' in reading) {
              const shown = formatMoneyIn(reading.cents, lang);
              if (shown !== text) onChange(shown);
            }
            setAmountRead(true);
          }}
        />
      );
      break;
    case 'datetime':
      control = (
        <input
          {...common}
          className={box}
          type="datetime-local"
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'date':
      control = (
        <input {...common} className={box} type="date" value={text} onChange={(e) => onChange(e.target.value)} />
      );
      break;
    case 'password':
      control = (
        <input
          {...common}
          className={box}
          type="password"
          autoComplete="new-password"
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'link':
      control = (
        <input
          {...common}
          className={box}
          type="url"
          inputMode="url"
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'image':
      control = (
        <div className="flex items-center gap-3">
          {/* A new path is a new picture: a failed load of the old one must not stick. */}
          <Thumbnail key={text} path={text} alt={name} t={t} className="h-12 w-12" />
          <input {...common} className={box} type="text" value={text} onChange={(e) => onChange(e.target.value)} />
        </div>
      );
      break;
    default:
      control = (
        <input {...common} className={box} type="text" value={text} onChange={(e) => onChange(e.target.value)} />
      );
  }

  if (field.kind === 'switch') {
    return (
      <div className="flex flex-col gap-1">
        <div className="flex items-center gap-3">
          {control}
          <label htmlFor={id} className="text-sm font-medium text-slate-700">
            {name}
          </label>
        </div>
        {errorLine}
      </div>
    );
  }

  const upload = uploadOf(field);
  const uploader = upload && offersCall('upload') && (
    <UploadControl
      kind={upload.kind}
      fieldKey={field.key}
      describedBy={`${id}-label`}
      t={t}
      onUploaded={(answer) => {
        onChange(uploadedValue(field, answer));
        const filled: Record<string, DraftValue> = {};
        if (upload.sizeField) filled[upload.sizeField] = String(answer.size);
        if (upload.md5Field) filled[upload.md5Field] = answer.md5;
        // The package's name (chat-5.1.0.apk) suggests its platform and version.
        const facts = packageFacts(answer.name);
        const suggested: Record<string, DraftValue> = {};
        if (upload.platformField && facts.platform) suggested[upload.platformField] = facts.platform;
        if (upload.versionField && facts.version) suggested[upload.versionField] = facts.version;
        if (Object.keys(filled).length > 0 || Object.keys(suggested).length > 0) onFill?.(filled, suggested);
      }}
    />
  );

  return (
    <div className="flex flex-col gap-1">
      <label id={`${id}-label`} htmlFor={id} className="text-sm font-medium text-slate-700">
        {name}
        {field.required && (
          <span className="text-red-600" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {control}
      {hintList.length > 0 && (
        <p id={hintId} className="text-xs text-slate-500">
          {hintList.join(' · ')}
        </p>
      )}
      {count !== null && (
        <p
          id={counterId}
          className={`text-xs ${count > field.maxLength! ? 'font-medium text-red-600' : 'text-slate-500'}`}
          data-counter-for={field.key}
          data-over={count > field.maxLength! ? '' : undefined}
        >
          {t('engine.counter', { count: formatCount(count, lang), max: formatCount(field.maxLength!, lang) })}
        </p>
      )}
      {uploader}
      {policy && (
        <p
          id={policyId}
          className={`text-xs ${policy.met ? 'text-green-700' : 'text-slate-500'}`}
          data-policy={policy.met ? 'met' : 'unmet'}
        >
          <span aria-hidden="true">{policy.met ? '✓ ' : '• '}</span>
          {policy.text}
        </p>
      )}
      {errorLine}
    </div>
  );
}
