import { Description, Field, Label, Switch } from '@headlessui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSignals } from '@preact/signals-react/runtime';
import { RUNNER_SWITCHES, type OwnCallName, type RunnerState, type RunnerSwitch } from '#contract';
import { offersCall } from '../api/session.js';
import { toast } from '../lib/toast.js';
import { useT, type MessageKey } from '../i18n/index.js';
import { setSwitchMutationOptions } from './queries.js';

const LABELS: Record<RunnerSwitch, { label: MessageKey; hint: MessageKey }> = {
  moment: { label: 'deploy.switch.moment', hint: 'deploy.switchHint.moment' },
  wallet: { label: 'deploy.switch.wallet', hint: 'deploy.switchHint.wallet' },
  momentPublic: { label: 'deploy.switch.momentPublic', hint: 'deploy.switchHint.momentPublic' },
  automaticRegister: { label: 'deploy.switch.automaticRegister', hint: 'deploy.switchHint.automaticRegister' },
};

function RunnerSwitchRow({ name, state }: { name: RunnerSwitch; state: RunnerState }) {
  const t = useT();
  const client = useQueryClient();
  const mutation = useMutation(setSwitchMutationOptions(client));
  const checked = state[name];

  return (
    <Field
      className="flex items-start justify-between gap-4 border-b border-slate-100 py-3 last:border-b-0"
      data-testid={`switch-row-${name}`}
    >
      <div>
        <Label className="font-medium text-slate-800">{t(LABELS[name].label)}</Label>
        <Description className="text-sm text-slate-500">{t(LABELS[name].hint)}</Description>
      </div>
      <Switch
        checked={checked}
        // One call at a time per switch: a second flip would race the first one's rollback.
        disabled={mutation.isPending}
        onChange={(enabled) =>
          mutation.mutate(
            { name, enabled },
            {
              onSuccess: () =>
                toast.success(t(enabled ? 'deploy.switchedOn' : 'deploy.switchedOff', { name: t(LABELS[name].label) })),
            },
          )
        }
        data-testid={`switch-${name}`}
        className="group relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-slate-300 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary data-[checked]:bg-primary data-[disabled]:cursor-wait data-[disabled]:opacity-60"
      >
        <span className="inline-block h-4 w-4 translate-x-1 rounded-full bg-white shadow transition-transform group-data-[checked]:translate-x-6" />
      </Switch>
    </Field>
  );
}

const SWITCH_OWN_CALLS: Record<RunnerSwitch, OwnCallName> = {
  moment: 'runnerSetMoment',
  wallet: 'runnerSetWallet',
  momentPublic: 'runnerSetMomentPublic',
  automaticRegister: 'runnerSetAutomaticRegister',
};

/**
 * The four start switches; each flip is its own call, shown at once and undone on failure. A
 * switch whose call the backend lacks is left out rather than offered to fail.
 */
export function RunnerSwitches({ state }: { state: RunnerState }) {
  useSignals();
  return (
    <div>
      {RUNNER_SWITCHES.filter((name) => offersCall(SWITCH_OWN_CALLS[name])).map((name) => (
        <RunnerSwitchRow key={name} name={name} state={state} />
      ))}
    </div>
  );
}
