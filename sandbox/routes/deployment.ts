import type { FastifyInstance } from 'fastify';
import type { RunnerSwitch } from '../../server/contract/index.js';
import { CALLS } from '../../server/contract/index.js';
import { badRequest, ok } from '../errors.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import { bodyObject } from './common.js';

const SWITCH_ROUTES: readonly [path: string, name: RunnerSwitch][] = [
  [CALLS.runnerSetMoment, 'moment'],
  [CALLS.runnerSetWallet, 'wallet'],
  [CALLS.runnerSetMomentPublic, 'momentPublic'],
  [CALLS.runnerSetAutomaticRegister, 'automaticRegister'],
];

/** The three deployment screens: monitor, start switches with the runner config, data migration. */
export function registerDeployment(app: FastifyInstance, store: SandboxStore): void {
  const deployment = store.deployment;

  app.get(CALLS.runner, async () => ok(deployment.runner()));

  for (const [path, name] of SWITCH_ROUTES) {
    app.post(path, async (request) => {
      const { enabled } = bodyObject(request.body);
      if (typeof enabled !== 'boolean') throw badRequest('enabled must be true or false');
      deployment.switches[name] = enabled;
      return ok(deployment.runner());
    });
  }

  app.post(CALLS.runnerSaveConfig, async (request) => ok(deployment.saveConfig(request.body)));

  app.get(CALLS.monitoring, async () => ok(deployment.monitoring(Date.now())));

  app.post(CALLS.importDatabase, async (request) =>
    ok(deployment.importDatabase(bodyObject(request.body).url, Date.now())),
  );
}
