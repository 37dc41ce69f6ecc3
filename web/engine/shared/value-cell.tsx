import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { FieldDef } from '#contract';
import { dateTimeParts, formatBytes, formatCount, formatDateTime, formatDay } from '../../lib/format.js';
import { language } from '../../lib/settings.js';
import type { LabelT } from '../../i18n/resources/index.js';
import { moduleLabel, optionLabel } from './labels.js';
import { formatMoneyIn } from './money.js';
import { pictureState, subscribePictures, watchPicture } from '../../lib/picture-batch.js';

export const FILE_PREFIX = '/plate/';

/** '/plate/' + a file-server path; a full URL or an absolute path is taken as it is. */
export function imageUrl(path: string): string {
  if (/^(https?:)?\/\//.test(path) || path.startsWith('/')) return path;
  return FILE_PREFIX + path;
}

/**
 * Text with no space that reads as one token (a phone number, an account, an address): broken
 * inside it stops being readable, so a cell keeps it whole. Longer runs may still break anywhere,
 * or one long value would push the table past its box.
 */
export function isWholeToken(text: string): boolean {
  return /^[\x21-\x7e]{1,24}$/.test(text);
}

/**
 * An amount in the smallest unit as the reader's language writes it ("1,200.00", es "1.200,00");
 * text that is no number is shown as it came.
 */
export function moneyText(value: unknown): string {
  const cents = Math.round(Number(value));
  return Number.isSafeInteger(cents) ? formatMoneyIn(cents, language.value) : String(value);
}

/**
 * A number field's value: a quantity with the language's digit grouping (19,040, es 19.040), an
 * identifier as it is written (#12345 stays whole), other text as it came.
 */
export function numberText(field: Pick<FieldDef, 'identifier'>, value: unknown): string {
  if (field.identifier || typeof value !== 'number') return String(value);
  return formatCount(value, language.value);
}

/** One value as plain text, in the current language: table cells without markup, detail rows. */
export function valueText(
  t: LabelT,
  field: Pick<FieldDef, 'key' | 'kind' | 'options' | 'resourceIds' | 'identifier'>,
  value: unknown,
): string {
  if (value === null || value === undefined || value === '') return '';
  switch (field.kind) {
    case 'money':
      return moneyText(value);
    case 'number':
      return numberText(field, value);
    case 'datetime':
      return formatDateTime(value as string, language.value);
    case 'date':
      return formatDay(String(value), language.value);
    case 'bytes':
      return typeof value === 'number' ? formatBytes(value, language.value) : String(value);
    case 'switch':
      return value === true ? t('engine.yes') : t('engine.no');
    case 'select':
      return optionLabel(t, field.key, value as string);
    case 'lines':
      return Array.isArray(value)
        ? value.map((v) => (field.options ? optionLabel(t, field.key, String(v)) : String(v))).join(', ')
        : String(value);
    case 'password':
      return '';
    default:
      if (field.resourceIds) return moduleLabel(t, String(value));
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

export function Thumbnail({
  path,
  alt,
  t,
  className = 'h-8 w-8',
}: {
  path: string;
  alt: string;
  t: LabelT;
  className?: string;
}) {
  // The path that failed, not a flag: a table row reused for another record shows that record's
  // image without being built again (a page of rows would otherwise rebuild a hundred images).
  const [failedPath, setFailedPath] = useState<string | null>(null);
  const url = path ? imageUrl(path) : '';
  // Fetched with the other pictures near the view and shown with them (picture-batch.ts); until
  // then a stand-in of the picture's size holds its place.
  const state = useSyncExternalStore(subscribePictures, () => (url ? pictureState(url) : undefined));
  const place = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!url || state !== undefined || !place.current) return;
    return watchPicture(place.current, url);
  }, [url, state]);
  if (!path || failedPath === path || state === 'failed') {
    return (
      <span
        role="img"
        aria-label={t('engine.noImage')}
        className={`${className} inline-flex items-center justify-center rounded bg-slate-200 align-middle text-[10px] text-slate-500`}
      >
        ?
      </span>
    );
  }
  // A block, as the stylesheet's reset makes every picture: inline, it would sit on a line of
  // text and make the row taller than the picture will.
  if (state === undefined)
    return (
      <span
        ref={place}
        role="img"
        aria-label={alt}
        aria-busy="true"
        className={`${className} block rounded bg-slate-100`}
      />
    );
  return (
    <img
      src={url}
      alt={alt}
      className={`${className} rounded object-cover align-middle`}
      onError={() => setFailedPath(path)}
    />
  );
}

/** One value rendered for a table cell or a detail row. */
export function ValueView({ t, field, value }: { t: LabelT; field: FieldDef; value: unknown }) {
  return valueNode(t, field, value);
}

/**
 * The same, as elements rather than a component: a table page calls it for each of its ~1,000
 * cells, and a component each would be as many more fibers for React to build and compare.
 */
export function valueNode(t: LabelT, field: FieldDef, value: unknown): ReactNode {
  if (value === null || value === undefined || value === '')
    return <span className="text-slate-400">{t('engine.none')}</span>;
  switch (field.kind) {
    case 'switch':
      return (
        <span
          className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${value === true ? 'bg-green-100 text-green-800' : 'bg-slate-100 text-slate-600'}`}
        >
          {valueText(t, field, value)}
        </span>
      );
    case 'money': {
      const negative = Number(value) < 0;
      return <span className={`tabular-nums ${negative ? 'text-red-700' : ''}`}>{moneyText(value)}</span>;
    }
    case 'number':
      return <span className="tabular-nums">{numberText(field, value)}</span>;
    case 'bytes':
      // The exact count stays at hand for whoever compares two uploads.
      return (
        <span
          className="tabular-nums whitespace-nowrap"
          title={typeof value === 'number' ? `${formatCount(value, language.value)} B` : undefined}
        >
          {valueText(t, field, value)}
        </span>
      );
    case 'image':
      return <Thumbnail path={String(value)} alt={String(value)} t={t} />;
    case 'lines':
      return (
        <span className="flex flex-wrap gap-1">
          {(Array.isArray(value) ? value : [value]).map((v, i) => (
            <span key={i} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs whitespace-nowrap text-slate-700">
              {field.options ? optionLabel(t, field.key, String(v)) : String(v)}
            </span>
          ))}
        </span>
      );
    case 'link':
      // Only web links become anchors: a stored javascript:// text must stay inert.
      if (!/^https?:\/\//i.test(String(value))) return <span className="wrap-anywhere">{String(value)}</span>;
      return (
        <a href={String(value)} target="_blank" rel="noopener noreferrer" className="break-all text-primary underline">
          {String(value)}
        </a>
      );
    case 'datetime': {
      // Date and time may go on two lines when a table is short of width, never broken inside.
      const parts = dateTimeParts(value as string, language.value);
      if (!parts) return <span className="wrap-anywhere">{String(value)}</span>;
      const { date, time } = parts;
      return (
        <span>
          <span className="whitespace-nowrap">{date}</span>
          {time && (
            <>
              {' '}
              <span className="whitespace-nowrap">{time}</span>
            </>
          )}
        </span>
      );
    }
    case 'longtext':
      return <span className="line-clamp-2 wrap-anywhere whitespace-pre-wrap">{String(value)}</span>;
    default: {
      const text = valueText(t, field, value);
      // An option's label is a word or two ("银行卡", "待处理"): broken only between words, never inside
      // one, which Chinese and Japanese would allow between any two characters.
      return (
        <span
          className={
            isWholeToken(text) ? 'whitespace-nowrap' : field.kind === 'select' ? 'break-keep' : 'wrap-anywhere'
          }
        >
          {text}
        </span>
      );
    }
  }
}
