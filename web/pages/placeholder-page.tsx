import { useT } from '../i18n/index.js';
import type { PageProps } from '../app/routes.js';

/**
 * PLACEHOLDER SCREEN (issue 3): one titled stand-in for every screen until the screen engine
 * (next issue) replaces it route by route in web/app/routes.ts.
 */
export default function PlaceholderPage({ route }: PageProps) {
  const t = useT();
  return (
    <section className="p-6" data-testid="placeholder-page" data-route={route.path}>
      <h1 className="text-2xl font-semibold text-slate-800">{t(route.meta.title)}</h1>
      <p className="mt-3 rounded-md border border-dashed border-slate-300 bg-slate-50 p-4 text-slate-600">{t('placeholder.note')}</p>
      {route.meta.permission && route.meta.permission.length > 0 && (
        <p className="mt-3 text-sm text-slate-500">
          {t('placeholder.permission')}: <code className="rounded bg-slate-100 px-1">{route.meta.permission.join(', ')}</code>
        </p>
      )}
    </section>
  );
}
