import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { APPROVAL_CALLS, isHeldAnswer, type ApprovalList, type ApprovalView } from '#contract';
import { api } from '../../api/client.js';

/**
 * Held calls (two-person approval) as the screens see them: GET /api/approvals, polled while a
 * screen that can hold calls is open, and the confirm and decline calls. The gateway says what is
 * held; a screen only shows it.
 */

export const approvalKeys = { all: ['approvals'] as const };

/** How often an open screen asks again, so a hold made or settled elsewhere shows within this. */
export const APPROVALS_POLL_MS = 10_000;

export function approvalsQueryOptions() {
  return queryOptions({
    queryKey: approvalKeys.all,
    // Quiet: a screen shows its own line when they cannot be read, instead of a toast every poll.
    queryFn: async ({ signal }): Promise<ApprovalList> => {
      const data = (await api.get<ApprovalList>(APPROVAL_CALLS.list, undefined, { signal, quiet: true })).data;
      const above = data?.dualControlAbove;
      return {
        list: Array.isArray(data?.list) ? data.list : [],
        dualControlAbove: typeof above === 'number' && Number.isSafeInteger(above) ? above : null,
      };
    },
    refetchInterval: APPROVALS_POLL_MS,
    staleTime: 0,
  });
}

/** The holds of one screen's resource, and the action holds by each record they name; none asked for unless `enabled`. */
export function useHolds(resourceId: string, enabled = true) {
  const query = useQuery({ ...approvalsQueryOptions(), enabled });
  return useMemo(() => {
    const holds = (query.data?.list ?? []).filter((h) => h.resource === resourceId);
    const byTarget = new Map<string, ApprovalView>();
    for (const hold of holds) if (hold.kind === 'action') for (const id of hold.targets) byTarget.set(id, hold);
    return { holds, byTarget, failed: query.isError && !query.data };
  }, [query.data, query.isError, resourceId]);
}

/**
 * DUAL_CONTROL_ABOVE when `enabled` (the screen offers the held approval), so its dialog can say
 * before the click that an approval will wait for a second approver; null while unknown or off.
 */
export function useHeldAbove(enabled: boolean): number | null {
  const query = useQuery({ ...approvalsQueryOptions(), enabled });
  return enabled ? (query.data?.dualControlAbove ?? null) : null;
}

/**
 * Confirm and decline, each refreshing the holds and the held screen's data (what a confirmation
 * changed). Refusals (same approver, expired, changed meanwhile) are toasts of the API client.
 */
export function useSettleApproval() {
  const client = useQueryClient();
  const refresh = (hold: ApprovalView) => {
    void client.invalidateQueries({ queryKey: approvalKeys.all });
    void client.invalidateQueries({ queryKey: ['resource', hold.resource] });
  };
  const confirm = useMutation({
    mutationFn: async (hold: ApprovalView) => (await api.post<unknown>(APPROVAL_CALLS.confirm(hold.id), {})).data,
    onSettled: (_data, _error, hold) => refresh(hold),
  });
  const decline = useMutation({
    mutationFn: async ({ hold, reason }: { hold: ApprovalView; reason: string }) =>
      (await api.post<unknown>(APPROVAL_CALLS.decline(hold.id), { reason }, { quiet: true })).data,
    onSettled: (_data, _error, { hold }) => refresh(hold),
  });
  return { confirm, decline };
}

/** After a call of a screen: whether the gateway held it, and the holds are then asked again. */
export function useHeldAnswer() {
  const client = useQueryClient();
  return (data: unknown): boolean => {
    if (!isHeldAnswer(data)) return false;
    void client.invalidateQueries({ queryKey: approvalKeys.all });
    return true;
  };
}
