import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  CALLS,
  type ImportDatabaseBody,
  type ImportDatabaseResult,
  type MonitoringAnswer,
  type RunnerConfig,
  type RunnerState,
  type RunnerSwitch,
  type SwitchBody,
} from '#contract';
import { api } from '../api/client.js';

/** One options factory per deployment call; keys nest under ['deployment']. */

export const MONITOR_REFRESH_MS = 5_000;

export const deploymentKeys = {
  all: ['deployment'] as const,
  runner: () => ['deployment', 'runner'] as const,
  monitoring: () => ['deployment', 'monitoring'] as const,
};

export const SWITCH_CALLS: Record<RunnerSwitch, string> = {
  moment: CALLS.runnerSetMoment,
  wallet: CALLS.runnerSetWallet,
  momentPublic: CALLS.runnerSetMomentPublic,
  automaticRegister: CALLS.runnerSetAutomaticRegister,
};

function required<T>(data: T | undefined, path: string): T {
  if (data === undefined || data === null) throw new Error(`${path} answered without data`);
  return data;
}

export function runnerQueryOptions() {
  return queryOptions({
    queryKey: deploymentKeys.runner(),
    queryFn: async ({ signal }) =>
      required((await api.get<RunnerState>(CALLS.runner, undefined, { signal })).data, CALLS.runner),
    // Switches and the config form must start from what the server holds now.
    staleTime: 0,
  });
}

export function monitoringQueryOptions(paused: boolean) {
  return queryOptions({
    queryKey: deploymentKeys.monitoring(),
    queryFn: async ({ signal }) =>
      required((await api.get<MonitoringAnswer>(CALLS.monitoring, undefined, { signal })).data, CALLS.monitoring),
    refetchInterval: paused ? false : MONITOR_REFRESH_MS,
    staleTime: 0,
  });
}

export interface SwitchChange {
  name: RunnerSwitch;
  enabled: boolean;
}

/**
 * One start switch, optimistic: the cache shows the new position at once and goes back to the
 * old one when the call fails (the API client has already shown the server's message).
 */
export function setSwitchMutationOptions(client: QueryClient) {
  return mutationOptions<RunnerState | undefined, Error, SwitchChange, { previous: boolean | undefined }>({
    mutationFn: async ({ name, enabled }) =>
      (await api.post<RunnerState>(SWITCH_CALLS[name], { enabled } satisfies SwitchBody)).data,
    onMutate: async ({ name, enabled }) => {
      // A runner read in flight must not land after this and undo the optimistic value.
      await client.cancelQueries({ queryKey: deploymentKeys.runner() });
      const previous = client.getQueryData<RunnerState>(deploymentKeys.runner())?.[name];
      client.setQueryData<RunnerState>(deploymentKeys.runner(), (old) => (old ? { ...old, [name]: enabled } : old));
      return { previous };
    },
    onError: (_error, { name }, context) => {
      if (context?.previous === undefined) return;
      client.setQueryData<RunnerState>(deploymentKeys.runner(), (old) =>
        old ? { ...old, [name]: context.previous! } : old,
      );
    },
    onSuccess: (answer, { name }) => {
      // Only this switch is taken from the answer: another switch may still be on its way.
      if (!answer || typeof answer[name] !== 'boolean') return;
      client.setQueryData<RunnerState>(deploymentKeys.runner(), (old) =>
        old ? { ...old, [name]: answer[name] } : old,
      );
    },
  });
}

export function saveRunnerConfigMutationOptions(client: QueryClient) {
  return mutationOptions<RunnerConfig | undefined, Error, Partial<RunnerConfig>>({
    mutationFn: async (config) => (await api.post<RunnerConfig>(CALLS.runnerSaveConfig, config)).data,
    onSuccess: (saved) => {
      if (!saved) return void client.invalidateQueries({ queryKey: deploymentKeys.runner() });
      client.setQueryData<RunnerState>(deploymentKeys.runner(), (old) => (old ? { ...old, config: saved } : old));
    },
  });
}

export function importDatabaseMutationOptions() {
  return mutationOptions<ImportDatabaseResult, Error, ImportDatabaseBody>({
    mutationFn: async (body) =>
      required((await api.post<ImportDatabaseResult>(CALLS.importDatabase, body)).data, CALLS.importDatabase),
  });
}
