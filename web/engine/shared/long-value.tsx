import { useState } from 'react';
import type { LabelT } from '../../i18n/resources/index.js';
import { formatCount } from '../../lib/format.js';
import { language } from '../../lib/settings.js';

/** Characters a value shows before it is shortened: a long link or hash still reads, and fits a phone in a few lines. */
export const LONG_VALUE_SHOWN = 120;

/** The start of a long value as shown while shortened; the value itself when it is short enough. */
export function shortened(value: string, shown = LONG_VALUE_SHOWN): string {
  return value.length > shown ? `${value.slice(0, shown)}…` : value;
}

/**
 * A value of any length that never widens its box: it breaks anywhere (a link or a hash is one long
 * token with no space to wrap at), and a long one shows its start with "Show all" and "Copy", so a
 * 3,000-character link is a few lines until someone asks for the rest, and can be taken whole
 * without selecting it by hand.
 */
export function LongValue({
  value,
  t,
  shown = LONG_VALUE_SHOWN,
  className = '',
}: {
  value: string;
  t: LabelT;
  shown?: number;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  const long = value.length > shown;
  return (
    <span className={`min-w-0 wrap-anywhere ${className}`} data-long-value={long ? (open ? 'open' : 'short') : 'whole'}>
      {long && !open ? shortened(value, shown) : value}
      {long && (
        <span className="ml-2 inline-flex gap-2 font-sans whitespace-nowrap">
          <button
            type="button"
            className="text-primary underline-offset-2 hover:underline"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            {open
              ? t('engine.showLess')
              : t('engine.showAllText', { count: formatCount(value.length, language.value) })}
          </button>
          <button
            type="button"
            className="text-primary underline-offset-2 hover:underline"
            onClick={() => {
              // No clipboard (an insecure origin, a refused permission): "Show all" still lets it be selected.
              void navigator.clipboard?.writeText(value).then(
                () => setCopied(true),
                () => setCopied(false),
              );
            }}
          >
            {copied ? t('engine.copied') : t('engine.copy')}
          </button>
        </span>
      )}
    </span>
  );
}
