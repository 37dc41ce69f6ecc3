import { ApiError } from '../../api/client.js';
import { useLabelT } from '../../i18n/resources/index.js';

/** The call a failed load reached in vain (the backend lacks it), or null for any other failure. */
export function missingCallOf(error: unknown) {
  return error instanceof ApiError && error.missingCall ? error.missingCall : null;
}

/**
 * In place of a screen whose call the backend does not have: names the call as the gateway sent
 * it, and where to read about binding it, rather than a bare error toast.
 */
export function MissingCallNotice({ error }: { error: unknown }) {
  const t = useLabelT();
  const call = missingCallOf(error);
  if (!call) return null;
  return (
    <div
      role="alert"
      className="flex flex-col gap-1 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-900"
      data-testid="missing-call"
    >
      <p className="font-medium">{t('engine.missingCall', { method: call.method, path: call.path })}</p>
      <p className="text-sm">{t('engine.missingCallHint')}</p>
    </div>
  );
}
