import cluster from 'node:cluster';

/** Set by the primary in each worker's environment: marks a worker of ours (not of PM2 or the like). */
export const WORKER_ENV = 'GATEWAY_CLUSTER_WORKER';
/** Set by the primary in sandbox mode: where the sandbox backend it started listens. */
export const SANDBOX_URL_ENV = 'GATEWAY_SANDBOX_URL';
/** Set beside it when the sandbox serves more than one address (OpenIM's chat API): JSON of name to URL. */
export const SANDBOX_SERVICES_ENV = 'GATEWAY_SANDBOX_SERVICES';

/** True in a process forked by startPrimary(); a process some other cluster manager forked is not one. */
export function isGatewayWorker(): boolean {
  return cluster.isWorker && process.env[WORKER_ENV] === '1';
}
