import { useId } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { navigate } from 'wouter/use-browser-location';
import { session, siteConfig } from '../api/session.js';
import { sessionEndedNotice } from '../lib/session-lost.js';
import { language, setLanguage } from '../lib/settings.js';
import { useT } from '../i18n/index.js';
import { LANGUAGES, LANGUAGE_NAMES, isLanguage } from '../lib/language.js';
import { Logo } from '../ui/logo.js';
import { LoginFailure, LoginFields } from './login-fields.js';
import { useLoginForm } from './use-login-form.js';

export { formatWait, validateLogin } from './use-login-form.js';

/** `next`: where to go once logged in (the app reads it from the redirect parameter). */
export default function LoginPage({ next }: { next: string }) {
  useSignals();
  const t = useT();
  const id = useId();
  const form = useLoginForm({
    onLoggedIn: (info) => {
      sessionEndedNotice.value = false;
      // Same tick: the guard sees the target and the new session together.
      navigate(next, { replace: true });
      session.value = info;
    },
  });
  const { failure, waiting, busy } = form;
  const config = siteConfig.value;
  const sessionEnded = sessionEndedNotice.value;

  return (
    // The backdrop stays dark in both schemes and the form takes the scheme's surface, so the dark
    // scheme shows a dark form rather than a light page around a dark card.
    <main className="login-backdrop flex flex-1 items-center justify-center px-4 py-10">
      <div className="w-full max-w-sm">
        {/* Light text on the dark backdrop in either scheme. */}
        <div className="mb-3 flex justify-end" data-palette="fixed">
          <label className="flex items-center gap-2 text-sm text-slate-200">
            {t('login.language')}
            <select
              className="rounded border border-slate-500 bg-slate-700 px-2 py-1 text-slate-100"
              value={language.value}
              onChange={(e) => isLanguage(e.target.value) && setLanguage(e.target.value)}
              data-testid="login-language"
            >
              {LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {LANGUAGE_NAMES[l]}
                </option>
              ))}
            </select>
          </label>
        </div>
        <form
          onSubmit={(e) => void form.onSubmit(e)}
          noValidate
          className="rounded-lg bg-white p-8 shadow-xl"
          aria-labelledby={`${id}-title`}
        >
          <div className="mb-6 flex flex-col items-center gap-2 text-center">
            <Logo path={config?.logoIconPath ?? config?.webIconPath} alt="" className="h-14 w-14" />
            {config?.chatRoomName && <p className="text-lg font-semibold text-slate-800">{config.chatRoomName}</p>}
            <h1 id={`${id}-title`} className="text-xl font-bold text-slate-900">
              {t('login.title')}
            </h1>
          </div>

          <LoginFields form={form} id={id} />

          {sessionEnded && !failure && !waiting && (
            <p
              role="status"
              data-testid="login-session-ended"
              className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"
            >
              {t('login.sessionEnded')}
            </p>
          )}

          <LoginFailure form={form} />

          <button type="submit" disabled={busy || waiting} className="btn btn-primary w-full justify-center py-2">
            {busy ? t('login.submitting') : t('login.submit')}
          </button>
        </form>
      </div>
    </main>
  );
}
