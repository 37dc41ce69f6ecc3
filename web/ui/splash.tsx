import { useT } from '../i18n/index.js';

/** What shows while a page or the session loads. */
export function Splash() {
  const tr = useT();
  return (
    <div className="flex flex-1 items-center justify-center text-slate-500" role="status">
      {tr('app.loading')}
    </div>
  );
}
