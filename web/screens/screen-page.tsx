import { use } from 'react';
import type { PageProps } from '../app/routes.js';
import { useT } from '../i18n/index.js';
import { labelsReady } from '../i18n/resources/index.js';
import { ListScreen } from '../engine/list-screen.js';
import { OperationScreen } from '../engine/operation-screen.js';
import { SettingsScreen } from '../engine/settings-screen.js';
import { StatisticsScreen } from '../engine/statistics-screen.js';
import { SCREENS, type ScreenDecl } from './index.js';

function Body({ decl }: { decl: ScreenDecl }) {
  switch (decl.kind) {
    case 'list':
      return <ListScreen resource={decl.resource} options={decl.options} />;
    case 'settings':
      return <SettingsScreen resource={decl.resource} options={decl.options} />;
    case 'statistics':
      return <StatisticsScreen resource={decl.resource} />;
    case 'operation':
      return <OperationScreen resource={decl.resource} options={decl.options} />;
  }
}

/** The page of every engine screen: the route's title, then the screen declared for its path. */
export default function ScreenPage({ route }: PageProps) {
  const t = useT();
  // Suspends (inside the layout's Suspense) until the labels of the current language are in.
  use(labelsReady());
  const decl = SCREENS[route.path];
  if (!decl) throw new Error(`No screen is declared for ${route.path}`);
  return (
    <section className="p-4 sm:p-6" data-screen={route.path}>
      <h1 className="mb-4 text-2xl font-semibold text-slate-800">{t(route.meta.title)}</h1>
      {/* A new key per path: moving between two screens of one kind starts with fresh state. */}
      <Body key={route.path} decl={decl} />
    </section>
  );
}
