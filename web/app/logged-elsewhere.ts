import { signal } from '@preact/signals-react';

/**
 * Open once the backend says the session ended (logged in elsewhere) or the gateway says it
 * expired: the frame's dialog (relogin-dialog.tsx, in the lazy layout chunk, so the login page's
 * first load does not carry it) then offers to log in again over the page.
 */
export const loggedElsewhereOpen = signal(false);
/** Why it ended, for the dialog's words: another login of the account, or the session's age. */
export const sessionEndedBy = signal<'backend' | 'expired'>('backend');
