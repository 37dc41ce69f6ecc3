import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { installErrorReporter } from './app/error-reporter.js';
import { loggedElsewhereOpen, sessionEndedBy } from './app/logged-elsewhere.js';
import { setTabIcon, siteTitle } from './app/title.js';
import { setApiHooks } from './api/client.js';
import { loadSession, loadSiteConfig } from './api/session.js';
import { activateLanguage, initI18n } from './i18n/index.js';
import { installLeaveGuard } from './lib/leave-guard.js';
import { sessionLost } from './lib/session-lost.js';
import { applyDocumentSettings, language } from './lib/settings.js';
import { toast } from './lib/toast.js';

initI18n();
// A failed backend call is told in a toast; a session ended elsewhere opens its dialog; a session
// the gateway no longer accepts goes back to the login form.
// While the dialog offers to log in again in place, a call refused meanwhile leaves the page be.
setApiHooks({
  notifyError: toast.error,
  loggedInElsewhere: () => {
    if (!loggedElsewhereOpen.value) sessionEndedBy.value = 'backend';
    loggedElsewhereOpen.value = true;
  },
  sessionEnded: () => {
    if (!loggedElsewhereOpen.value) sessionLost();
  },
});
applyDocumentSettings((lang) => void activateLanguage(lang));
installLeaveGuard();
if (process.env.NODE_ENV === 'production') installErrorReporter();

// The session says first whether the backend offers the site configuration at all.
void loadSession()
  .then(loadSiteConfig)
  .then((config) => {
    document.title = siteTitle.value;
    setTabIcon(config?.webIconPath);
  });

const container = document.getElementById('app');
// Wait for a non-English language's messages so the first paint is not English for a moment.
await activateLanguage(language.value);
if (container) {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
