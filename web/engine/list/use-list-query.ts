import { useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { navigate } from 'wouter/use-browser-location';
import type { ListResource } from '#contract';
import { backendOffer } from '../../api/session.js';
import { useScreenLocation } from '../../lib/screen-location.js';
import { rememberListQuery } from '../../lib/record-nav.js';
import { neededFilters } from '../shared/offer.js';
import { listQueryOptions } from '../shared/queries.js';
import type { ListScreenOptions } from '../shared/types.js';
import { annotatedRows, pageToMoveTo, withAnnotation } from './list-controller-parts.js';
import { listShape, sendEarly } from './opening-query.js';
import { useScrollMemory } from './scroll-memory.js';
import { useHeldWhileHidden } from './use-held-while-hidden.js';
import { listQueryParams, parseListState, serialiseListState, type ListState } from './url-state.js';

const NO_VALUES: ReadonlyMap<string, string> = new Map();
const noValues = (): ReadonlyMap<string, string> => NO_VALUES;

/**
 * A list's page as its address asks for it: the state read from the URL, the query for that
 * page, the rows with the screen's annotation, and `go` to another state (the address only: what
 * else a move changes, the selection, is the caller's).
 */
export function useListQuery(
  contractResource: ListResource,
  options: Pick<ListScreenOptions, 'annotate' | 'defaultFilters'>,
) {
  const { annotate: annotation, defaultFilters } = options;
  const resource = useMemo(() => withAnnotation(contractResource, annotation), [contractResource, annotation]);
  const { path, search } = useScreenLocation();
  // The resource as the address reads it: with the filters the screen opens on (a review queue's pending state).
  const shape = useMemo(() => listShape(resource, defaultFilters), [resource, defaultFilters]);
  const state = useMemo(() => parseListState(search, shape), [search, shape]);
  const params = useMemo(() => listQueryParams(state), [state]);
  // Filters the backend cannot list without (Shiku's bill is one user's): the screen asks for them.
  const needed = neededFilters(backendOffer.value, resource.id).filter((key) => !state.filters[key]);
  // A backend that keeps no list of these (ejabberd's mass messages: sent, never listed) is never
  // asked for one: the screen keeps its own actions and says why there is nothing to show.
  const unlisted = (backendOffer.value.unsupported.calls[resource.id] ?? []).includes('list');
  const listQuery = { ...listQueryOptions(resource, params), enabled: needed.length === 0 && !unlisted };
  const client = useQueryClient();
  // A screen built afresh sends for its page as it starts to render rather than once it is
  // committed, so the call is under way while the screen is built (about 30 ms on a first visit).
  // A page or sort change within the screen is left to the query as it is: its answer landing in
  // the click's own render would only hold that render up. A page cached but stale is left to the
  // query too, which shows it while asking again.
  useState(() => {
    if (listQuery.enabled && !client.getQueryState(listQuery.queryKey)) sendEarly(client, listQuery);
  });
  const query = useQuery(listQuery);
  useHeldWhileHidden(listQuery.queryKey);

  const here = search ? `${path}?${search}` : path;
  // A record's page returns to the list as it is now, and going back puts the scroll back too.
  useEffect(() => rememberListQuery(path, search), [path, search]);
  useScrollMemory(here, !!query.data && !query.isPlaceholderData);

  const go = (next: ListState, replace = false) => {
    const qs = serialiseListState(next, shape);
    navigate(qs ? `${path}?${qs}` : path, { replace });
  };

  const answered = query.data?.list;
  // The same hook on every render of a screen: its options never change while it is shown.
  const useAnnotationValues = annotation?.useValues ?? noValues;
  const values = useAnnotationValues(contractResource, answered ?? []);
  const rows = useMemo(() => annotatedRows(answered ?? [], annotation, values), [answered, annotation, values]);
  const total = query.data?.total ?? 0;

  const moveTo = pageToMoveTo(state, query.data, query.isPlaceholderData);
  if (moveTo !== null) queueMicrotask(() => go({ ...state, pageNum: moveTo }, true));

  return { resource, shape, state, params, path, here, query, rows, total, go, needed, unlisted };
}
