import { useState, type FormEvent } from 'react';
import { useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';

/**
 * The filters and page of a gateway log page (the audit trail, the error log) kept in its address,
 * so a reload, Back or a shared link shows the same entries. These pages list the gateway's own
 * entries, not a resource's records, so they name their filters themselves (`actor`, `since`)
 * rather than through a resource's fields as the management lists' URL state does; the page and
 * its size are read and written the same way.
 */
export interface AddressPage<N extends string> {
  filters: Record<N, string>;
  pageNum: number;
  pageSize: number;
}

/** The page an address asks for; a page size it does not offer falls back to the first it does. */
export function readAddress<N extends string>(
  search: string,
  names: readonly N[],
  sizes: readonly number[],
): AddressPage<N> {
  const params = new URLSearchParams(search);
  const filters = Object.fromEntries(names.map((name) => [name, params.get(name) ?? ''])) as Record<N, string>;
  const pageNum = Math.max(1, Number(params.get('pageNum')) || 1);
  const asked = Number(params.get('pageSize'));
  const pageSize = sizes.includes(asked) ? asked : (sizes[0] ?? asked);
  return { filters, pageNum, pageSize };
}

/** The filters as sent: trimmed, the empty ones left out. */
export function filledFilters<N extends string>(
  filters: Record<N, string>,
  names: readonly N[],
): Partial<Record<N, string>> {
  const out: Partial<Record<N, string>> = {};
  for (const name of names) {
    const value = filters[name].trim();
    if (value !== '') out[name] = value;
  }
  return out;
}

/** The query string of a page: its filled filters in order, then page and size where not the first. */
export function writeAddress<N extends string>(
  page: AddressPage<N>,
  names: readonly N[],
  sizes: readonly number[],
): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filledFilters(page.filters, names))) params.set(name, String(value));
  if (page.pageNum > 1) params.set('pageNum', String(page.pageNum));
  if (page.pageSize !== sizes[0]) params.set('pageSize', String(page.pageSize));
  return params.toString();
}

/**
 * A log page's address state, and the filter form's draft of it: the draft is applied on Search
 * (from page 1), and a new address (a link, Back) brings its filters into the form.
 */
export function useAddressFilters<N extends string>(path: string, names: readonly N[], sizes: readonly number[]) {
  const search = useSearch();
  const applied = readAddress(search, names, sizes);
  const [draft, setDraft] = useState(applied.filters);
  const [shownFor, setShownFor] = useState(search);
  if (shownFor !== search) {
    setShownFor(search);
    setDraft(applied.filters);
  }
  const go = (next: Partial<AddressPage<N>>) => {
    const qs = writeAddress({ ...applied, ...next }, names, sizes);
    navigate(`${path}${qs ? `?${qs}` : ''}`);
  };
  return {
    ...applied,
    draft,
    set: (name: N, value: string) => setDraft((d) => ({ ...d, [name]: value })),
    go,
    search: (e: FormEvent) => {
      e.preventDefault();
      go({ filters: draft, pageNum: 1 });
    },
    reset: () => go({ filters: Object.fromEntries(names.map((n) => [n, ''])) as Record<N, string>, pageNum: 1 }),
  };
}
