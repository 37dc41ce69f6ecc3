import { use, useMemo } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { RESOURCES, type BackendOffer, type Resource } from '#contract';
import type { PageProps } from '../ui/page.js';
import { backendOffer, permissions } from '../api/session.js';
import { isAllowed } from '#contract/permissions';
import { offeredResource } from '../engine/shared/offer.js';
import { useT } from '../i18n/index.js';
import { labelsReady } from '../i18n/resources/index.js';
import { ListScreen } from '../engine/list/list-screen.js';
import { OperationScreen } from '../engine/operation/operation-screen.js';
import { SettingsScreen } from '../engine/settings/settings-screen.js';
import { StatisticsScreen } from '../engine/statistics/statistics-screen.js';
import type { ResultRenderer } from '../engine/operation/result-view.js';
import type { ListScreenDecl, ResultViewName, ScreenDecl } from './declare.js';
import { RecordPage } from '../engine/record/record-page.js';
import type { RelatedList } from '../engine/record/related.js';
import {
  ACTION_CONTEXTS,
  AFTER_ACTIONS,
  DETAIL_VIEWS,
  RECORD_HISTORY,
  RELATED_LISTS,
  RESULT_VIEWS,
  ROW_ANNOTATIONS,
  ROW_LINKS,
  WATCHED_COUNTS,
} from './views.js';

export interface ScreenPageProps extends PageProps {
  screen: ScreenDecl;
  /** The page of one record of the screen's list. */
  recordId?: string;
}

function resultViews(
  names: Readonly<Record<string, ResultViewName>> | undefined,
): Record<string, ResultRenderer> | undefined {
  if (!names) return undefined;
  return Object.fromEntries(Object.entries(names).map(([action, name]) => [action, RESULT_VIEWS[name]]));
}

const RESOURCE_BY_ID = new Map(RESOURCES.map((r) => [r.id, r]));

/** A declaration with the resource it names: what the engine screens take. */
type Resolved = {
  [K in ScreenDecl['kind']]: Extract<ScreenDecl, { kind: K }> & { resource: Extract<Resource, { kind: K }> };
}[ScreenDecl['kind']];

/** The contract's resource a route names; a name that is not one, or of another kind, is a broken route table. */
export function resolveScreen(decl: ScreenDecl): Resolved {
  const resource = RESOURCE_BY_ID.get(decl.id);
  if (!resource || resource.kind !== decl.kind)
    throw new Error(`the route table names ${decl.kind} resource "${decl.id}", which the contract does not declare`);
  return { ...decl, resource } as Resolved;
}

/**
 * The related lists a list screen declares, as the bound backend offers their resources. A list
 * its backend cannot filter by the record's field is left out: unfiltered, it would not be the
 * record's (Shiku's login records take no account).
 */
function relatedLists(name: ListScreenDecl['related'], offer: BackendOffer): RelatedList[] {
  const related: Readonly<Record<string, Readonly<Record<string, string>>>> = name ? RELATED_LISTS[name] : {};
  return Object.entries(related).flatMap(([id, filter]) => {
    const resource = RESOURCE_BY_ID.get(id);
    if (resource?.kind !== 'list')
      throw new Error(`a screen relates list resource "${id}", which the contract does not declare`);
    const unfiltered = offer.unsupported.filters[id] ?? [];
    if (Object.keys(filter).some((key) => unfiltered.includes(key))) return [];
    return [{ resource: offeredResource(resource, offer), filter }];
  });
}

function Body({
  decl: declared,
  record,
}: {
  decl: ScreenDecl;
  record?: { id: string; listPath: string; listTitle: string };
}) {
  useSignals();
  const offer = backendOffer.value;
  const held = permissions.value;
  // The resource as the bound backend offers it: what its map leaves out never shows.
  const decl = useMemo(() => {
    const resolved = resolveScreen(declared);
    return { ...resolved, resource: offeredResource(resolved.resource, offer) } as Resolved;
  }, [declared, offer]);
  // The declaration names its views; here they become the components the engine renders.
  const options = useMemo(() => {
    switch (decl.kind) {
      case 'list':
        return {
          detail: decl.options?.detail && DETAIL_VIEWS[decl.options.detail],
          results: resultViews(decl.options?.results),
          afterAction: decl.options?.afterAction && AFTER_ACTIONS[decl.options.afterAction],
          watch: decl.options?.watch && WATCHED_COUNTS[decl.options.watch],
          annotate: ROW_ANNOTATIONS[decl.id],
          links: ROW_LINKS[decl.id]?.filter((l) => isAllowed([l.permission], held ?? [])).map((l) => l.link),
          import: decl.options?.import,
          related: relatedLists(decl.options?.related, offer),
          history: RECORD_HISTORY,
          context: decl.options?.context && ACTION_CONTEXTS[decl.options.context],
          defaultFilters: decl.options?.filters,
          keys: decl.options?.keys,
        };
      case 'settings':
        return { results: resultViews(decl.options?.results) };
      case 'operation':
        return {
          result: decl.options?.result && RESULT_VIEWS[decl.options.result],
          preview: decl.options?.preview && RESULT_VIEWS[decl.options.preview],
        };
      default:
        return {};
    }
  }, [decl, held, offer]);
  switch (decl.kind) {
    case 'list':
      if (record)
        return (
          <RecordPage
            resource={decl.resource}
            id={record.id}
            listPath={record.listPath}
            listTitle={record.listTitle}
            options={options}
          />
        );
      return <ListScreen resource={decl.resource} options={options} />;
    case 'settings':
      return <SettingsScreen resource={decl.resource} options={options} />;
    case 'statistics':
      return <StatisticsScreen resource={decl.resource} />;
    case 'operation':
      return <OperationScreen resource={decl.resource} options={options} />;
  }
}

/** The page of every engine screen: the route's title, then the screen its route declares. */
export default function ScreenPage({ route, screen, recordId }: ScreenPageProps) {
  const t = useT();
  // Suspends (inside the layout's Suspense) until the labels of the current language are in.
  use(labelsReady());
  if (recordId !== undefined) {
    // The record's page names the record in its own heading, under the way back to its list.
    return (
      <section className="p-4 sm:p-6" data-screen={route.path}>
        <Body
          key={`${route.path}/${recordId}`}
          decl={screen}
          record={{ id: recordId, listPath: route.path, listTitle: t(route.meta.title) }}
        />
      </section>
    );
  }
  return (
    <section className="p-4 sm:p-6" data-screen={route.path}>
      <h1 className="mb-4 text-2xl font-semibold text-slate-800">{t(route.meta.title)}</h1>
      {/* A new key per path: moving between two screens of one kind starts with fresh state. */}
      <Body key={route.path} decl={screen} />
    </section>
  );
}
