import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { useSignals } from '@preact/signals-react/runtime';
import { resetSessionAndReload } from '../api/client.js';
import { accountName, session } from '../api/session.js';
import { useT } from '../i18n/index.js';
import { labelsReady, useLabelT } from '../i18n/resources/index.js';
import { sessionEndedNotice } from '../lib/session-lost.js';
import { sessionRestored } from '../lib/session-restored.js';
import { toast } from '../lib/toast.js';
import { LoginFailure, LoginFields } from '../pages/login-fields.js';
import { useLoginForm } from '../pages/use-login-form.js';
import { loggedElsewhereOpen, sessionEndedBy } from './logged-elsewhere.js';

/**
 * "Logged out", with a login form in place: the page under it, and what was typed there, stay
 * while the administrator logs in again (the login page's fields and rules). The same
 * administrator carries on where they were, and what failed meanwhile asks again; another account
 * reloads, as the permissions and the screen may differ. Closing instead resets the session and
 * reloads. A native modal <dialog> makes the page under it inert, Tab keeps to its controls, and Escape
 * does not close it: there is no page to go back to without a session.
 */
/**
 * Tab from the last control goes to the first, and Shift+Tab from the first to the last: a modal
 * dialog alone would let focus leave for the browser's own controls.
 */
function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>): void {
  // Escape closes nothing here, and must not reach a dialog under this one (an edit form would
  // ask to discard what was typed).
  if (event.key === 'Escape') {
    event.preventDefault();
    event.stopPropagation();
    return;
  }
  if (event.key !== 'Tab') return;
  const controls = [
    ...event.currentTarget.querySelectorAll<HTMLElement>('input, button, select, textarea, a[href]'),
  ].filter((el) => !el.hasAttribute('disabled') && el.tabIndex >= 0);
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

export function ReloginDialog() {
  useSignals();
  const ref = useRef<HTMLDialogElement>(null);
  const open = loggedElsewhereOpen.value;
  useEffect(() => {
    // The dialog's own words are screen labels, not yet loaded when no screen was opened (the
    // dashboard): they arrive, and the dialog redraws, while the administrator reads the rest.
    if (open) void labelsReady();
  }, [open]);
  useEffect(() => {
    const d = ref.current;
    if (!open || !d) return;
    // Where the administrator was (the Save button of a form, say), to go back to once logged in.
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!d.open) d.showModal();
    // The field to type in: the password when the account is known (React's autoFocus ran while
    // the dialog was still closed, so the browser's own choice would be the first field).
    d.querySelector<HTMLInputElement>(accountName.value ? 'input[name="password"]' : 'input[name="account"]')?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, [open]);
  if (!open) return null;
  // Outside the app's root: an open form dialog makes that root inert, and this one must answer
  // over it (the typed form stays under it).
  return createPortal(
    <dialog
      ref={ref}
      aria-labelledby="relogin-title"
      aria-describedby="relogin-text"
      className="m-auto w-full max-w-sm rounded-lg p-6 shadow-xl backdrop:bg-black/40"
      onCancel={(e) => e.preventDefault()}
      onKeyDown={keepFocusInside}
      data-testid="relogin-dialog"
    >
      <ReloginForm />
    </dialog>,
    document.body,
  );
}

function ReloginForm() {
  const t = useT();
  const lt = useLabelT();
  const id = useId();
  const before = session.value?.userId ?? null;
  const known = accountName.value;
  const form = useLoginForm({
    initialAccount: known,
    keepPermissions: true,
    onLoggedIn: (info) => {
      if (before !== null && info.userId !== before) {
        toast.info(lt('relogin.otherAccount'));
        location.reload();
        return;
      }
      session.value = info;
      sessionEndedNotice.value = false;
      loggedElsewhereOpen.value = false;
      sessionRestored();
      toast.success(lt('relogin.done'));
    },
  });

  return (
    <form
      onSubmit={(e) => void form.onSubmit(e)}
      noValidate
      aria-label={lt('relogin.title')}
      data-testid="relogin-form"
    >
      <h2 id="relogin-title" className="text-lg font-semibold">
        {t('api.loggedElsewhereTitle')}
      </h2>
      <p id="relogin-text" className="mt-2 text-slate-700">
        {sessionEndedBy.value === 'expired' ? t('login.sessionEnded') : t('api.loggedElsewhere')}
      </p>
      <p className="mt-2 mb-4 text-sm text-slate-600">{lt('relogin.intro')}</p>
      <LoginFields form={form} id={id} focus={known ? 'password' : 'account'} />
      <LoginFailure form={form} />
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="btn" onClick={() => void resetSessionAndReload()} data-testid="relogin-close">
          {t('api.close')}
        </button>
        <button
          type="submit"
          disabled={form.busy || form.waiting}
          className="btn btn-primary"
          data-testid="relogin-submit"
        >
          {form.busy ? t('login.submitting') : lt('relogin.submit')}
        </button>
      </div>
    </form>
  );
}
