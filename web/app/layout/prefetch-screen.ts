import type { QueryClient } from '@tanstack/react-query';
import { LIST_RESOURCES, type BackendOffer } from '#contract';
import { neededFilters, offeredResource } from '../../engine/shared/offer.js';
import { openingListQuery, sendEarly } from '../../engine/list/opening-query.js';
import { findRoute } from '../routes.js';

/**
 * Sends for the page a list screen opens on, as the press on its menu entry starts: a person's
 * press lasts some 50 to 150 ms before the click that navigates, and the call is under way by then.
 * The cache's freshness rules hold: a page already cached and fresh is not asked for again, and
 * the screen reads the same entry, so nothing is asked twice. Other screens are left alone.
 */
export function prefetchScreen(client: QueryClient, path: string, offer: BackendOffer): void {
  const route = findRoute(path);
  const screen = route?.kind === 'leaf' ? route.screen : undefined;
  if (screen?.kind !== 'list') return;
  const resource = LIST_RESOURCES.get(screen.id);
  if (!resource) return;
  // A list its backend reads only filtered (offer.needs) opens asking for the filter: nothing to send.
  if (neededFilters(offer, resource.id).some((key) => !screen.options?.filters?.[key])) return;
  sendEarly(client, openingListQuery(offeredResource(resource, offer), screen.options?.filters));
}
