import type { ReactNode } from 'react';
import { useLabelT } from '../../i18n/resources/index.js';
import { MissingCallNotice, missingCallOf } from './missing-call.js';

/*
 * The loading, failed and empty states every engine screen shows while its data is not (yet) there,
 * so a list, a chart, a settings form and a record page look and speak alike in each of them.
 * `inline` is the quieter form for a part of a page (a record's history or related list), the
 * default the boxed form for a screen's whole body.
 */

/**
 * Says "loading" to screen readers: beside a skeleton (`hidden`, the skeleton is what is seen) or as
 * the visible text where there is no skeleton.
 */
export function Loading({ hidden, inline }: { hidden?: boolean; inline?: boolean }) {
  const t = useLabelT();
  const className = hidden ? 'sr-only' : inline ? 'py-3 text-sm text-slate-500' : 'text-slate-500';
  return (
    <p role="status" className={className}>
      {t('engine.loading')}
    </p>
  );
}

/**
 * A load that failed, with a way to try again. A call the backend lacks is named instead (nothing
 * to retry there), so the operator learns what to bind rather than retrying in vain.
 */
export function LoadFailed({
  error,
  onRetry,
  message,
  inline,
  testId,
}: {
  error: unknown;
  onRetry: () => void;
  /** What failed, when more is known than "could not load". */
  message?: ReactNode;
  inline?: boolean;
  testId?: string;
}) {
  const t = useLabelT();
  if (missingCallOf(error)) return <MissingCallNotice error={error} />;
  const className = inline
    ? 'flex flex-wrap items-center gap-3 py-2 text-sm text-red-800'
    : 'flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 p-4 text-red-800';
  return (
    <div role="alert" className={className} data-testid={testId}>
      {message ?? t('engine.loadFailed')}
      <button type="button" className="btn" onClick={onRetry}>
        {t('engine.retry')}
      </button>
    </div>
  );
}

/** Nothing to show: the data came and holds nothing (as opposed to failing or still loading). */
export function Empty({ children, inline, testId }: { children?: ReactNode; inline?: boolean; testId?: string }) {
  const t = useLabelT();
  const className = inline
    ? 'py-3 text-sm text-slate-500'
    : 'rounded-md border border-dashed border-slate-300 bg-white p-8 text-center text-slate-500';
  return (
    <p className={className} data-testid={testId}>
      {children ?? t('engine.noData')}
    </p>
  );
}
