import { useSearch } from 'wouter';
import { useT } from '../i18n/index.js';
import type { PageProps } from '../ui/page.js';
import { WayBack } from '../ui/way-back.js';

/** The address an unknown path was redirected from (`?from=`), when it is one of this site's paths. */
export function askedAddress(search: string): string | null {
  const from = new URLSearchParams(search).get('from');
  return from && from.startsWith('/') && !from.startsWith('//') ? from.slice(0, 300) : null;
}

/** The 401 and 404 pages, standalone (/401, /404) or inside the frame (/error/401, /error/404). */
export default function ErrorPage({ code, route }: { code?: 401 | 404 } & Partial<PageProps>) {
  const t = useT();
  const which = code ?? (route?.path.endsWith('401') ? 401 : 404);
  const search = useSearch();
  const asked = which === 404 ? askedAddress(search) : null;
  return (
    <section
      className="flex min-h-[60vh] flex-col items-center justify-center gap-3 p-8 text-center"
      data-testid={`error-${which}`}
    >
      <p className="text-7xl font-bold text-primary">{which}</p>
      <h1 className="text-2xl font-semibold text-slate-800">
        {which === 401 ? t('error.401Title') : t('error.404Title')}
      </h1>
      <p className="text-slate-600">{which === 401 ? t('error.401Text') : t('error.404Text')}</p>
      {asked && (
        <p className="max-w-full text-sm break-all text-slate-600" data-testid="error-404-address">
          {t('error.404Address', { address: asked })}
        </p>
      )}
      <WayBack />
    </section>
  );
}
