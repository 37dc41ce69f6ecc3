import type { ReactNode } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { language } from '../lib/settings.js';
import { useT } from '../i18n/index.js';
import { localeOf } from '../lib/language.js';

/**
 * The frame every dashboard and deployment panel shares: its own heading, its own skeleton and
 * its own error with a retry, so one failing call never blanks the screen around it.
 */

/** The Intl locale of the chosen language, for numbers and dates. */
export function useLocale(): string {
  useSignals();
  return localeOf(language.value);
}

export function Panel({
  id,
  title,
  actions,
  children,
  testId,
  className = '',
}: {
  id: string;
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
  className?: string;
}) {
  return (
    <section
      aria-labelledby={id}
      data-testid={testId}
      className={`rounded-lg border border-slate-200 bg-white p-4 shadow-sm ${className}`}
    >
      <div className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-2">
        <h2 id={id} className="text-lg font-semibold text-slate-800">
          {title}
        </h2>
        {actions && <div className="ml-auto flex flex-wrap items-center gap-2 text-sm text-slate-600">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

export function Skeleton({ className = 'h-6 w-full' }: { className?: string }) {
  return <div className={`animate-pulse rounded bg-slate-200 ${className}`} aria-hidden="true" />;
}

/** Shown while a panel's first answer is on its way; the busy state is announced once. */
export function PanelSkeleton({ children }: { children: ReactNode }) {
  const t = useT();
  return (
    <div role="status" aria-busy="true" data-testid="panel-loading">
      <span className="sr-only">{t('common.loading')}</span>
      {children}
    </div>
  );
}

export function PanelError({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  const t = useT();
  return (
    <div
      role="alert"
      data-testid="panel-error"
      className="flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
    >
      <span>{t('dashboard.loadFailed')}</span>
      <button type="button" className="btn" onClick={onRetry} disabled={retrying}>
        {retrying ? t('common.loading') : t('common.retry')}
      </button>
    </div>
  );
}

/** "Updated 12:04:05" next to a panel title, in the page language. */
export function UpdatedAt({ at }: { at: number }) {
  const t = useT();
  const locale = useLocale();
  if (!at) return null;
  const time = new Date(at).toLocaleTimeString(locale, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });
  return <span data-testid="updated-at">{t('dashboard.updatedAt', { time })}</span>;
}
