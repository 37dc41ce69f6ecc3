import { createContext, useContext } from 'react';
import { recordPath } from '../../lib/record-nav.js';

/**
 * Where the records of each resource have their pages, as the frame knows from the route table and
 * the administrator's permissions: the engine knows no screen, so a record page that links to a
 * record of another resource (a user's group, a group's member) asks here. A resource whose list
 * the administrator may not open has no pages and gets no links.
 */
export interface RecordLinks {
  /** The path of the list screen of this resource, when the administrator may open it. */
  listPath(resourceId: string): string | undefined;
}

export const RecordLinksContext = createContext<RecordLinks>({ listPath: () => undefined });

export function useRecordLinks(): RecordLinks {
  return useContext(RecordLinksContext);
}

/** The page of a record of another resource, or null when it has none the administrator may open. */
export function recordHref(links: RecordLinks, resourceId: string, id: unknown): string | null {
  const list = links.listPath(resourceId);
  return list ? recordPath(list, id) : null;
}
