import { useT } from '../i18n/index.js';
import type { PageProps } from '../ui/page.js';
import { WayBack } from '../ui/way-back.js';

/** A screen the backend does not offer (its backend map marks it unsupported), reached by its URL. */
export default function NotOfferedPage({ route }: PageProps) {
  const t = useT();
  return (
    <section
      className="flex min-h-[60vh] flex-col items-center justify-center gap-3 p-8 text-center"
      data-testid="not-offered"
    >
      <h1 className="text-2xl font-semibold text-slate-800">{t('error.notOfferedTitle')}</h1>
      <p className="max-w-xl text-slate-600">{t('error.notOfferedText', { screen: t(route.meta.title) })}</p>
      <WayBack />
    </section>
  );
}
