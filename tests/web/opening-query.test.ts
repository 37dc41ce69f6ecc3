import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { LIST_RESOURCES } from '#contract';
import { openingListQuery, sendEarly } from '../../web/engine/list/opening-query.js';

const users = LIST_RESOURCES.get('users');
if (!users) throw new Error('the contract has no users list');

/** The users list's opening query, answered here instead of by a backend. */
function answered() {
  const answer = { list: [{ id: 1 }], total: 1 };
  const queryFn = vi.fn(async () => answer);
  return { query: { ...openingListQuery(users!, undefined), queryFn }, queryFn, answer };
}

describe('a list page sent for early', () => {
  it('stays cached for the screen that reads it, though list pages are otherwise dropped at once', async () => {
    const client = new QueryClient();
    const { query, answer } = answered();
    expect(query.gcTime).toBe(0);
    sendEarly(client, query);
    await vi.waitFor(() => expect(client.getQueryState(query.queryKey)?.status).toBe('success'));
    // A page with nothing showing it and a gcTime of 0 leaves on a timer of 0 ms, which runs before this one.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.getQueryData(query.queryKey)).toEqual(answer);
    client.clear();
  });

  it('is not asked for again while it is fresh', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 10_000 } } });
    const { query, queryFn } = answered();
    sendEarly(client, query);
    await vi.waitFor(() => expect(client.getQueryState(query.queryKey)?.status).toBe('success'));
    sendEarly(client, query);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(queryFn).toHaveBeenCalledTimes(1);
    client.clear();
  });
});
