import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { installErrorReporter } from './app/error-reporter.js';
import { loadSession, loadSiteConfig } from './app/session.js';
import { applyDocumentSettings, language } from './app/settings.js';
import { setTabIcon, siteTitle } from './app/title.js';
import { activateLanguage, initI18n } from './i18n/index.js';

initI18n();
applyDocumentSettings((lang) => void activateLanguage(lang));
if (process.env.NODE_ENV === 'production') installErrorReporter();

void loadSiteConfig().then((config) => {
  document.title = siteTitle.value;
  setTabIcon(config?.webIconPath);
});
void loadSession();

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
