import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../support/paths.js';

/** The gateway bundle `node build.mjs` writes and the image runs (`CMD ["node", "dist/server/main.js"]`). */
export const GATEWAY_BUNDLE = path.join(REPO_ROOT, 'dist', 'server', 'main.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * The arguments that run the shipped gateway: the bundle, not the TypeScript sources, so what is
 * tested is what the image runs. A missing or stale bundle (older than a server source) fails
 * loudly instead of testing yesterday's code; `npm test` builds before it runs.
 */
export function builtGatewayArgs(): string[] {
  let built: number;
  try {
    built = statSync(GATEWAY_BUNDLE).mtimeMs;
  } catch {
    throw new Error(`${GATEWAY_BUNDLE} is missing: run \`node build.mjs\` first (npm test does)`);
  }
  // The sandbox is a bundle of its own (sandbox-start.js) built beside main.js by the same build.
  const newest = Math.max(newestSource(path.join(REPO_ROOT, 'server')), newestSource(path.join(REPO_ROOT, 'sandbox')));
  if (newest > built) {
    throw new Error(`${GATEWAY_BUNDLE} is older than the server or sandbox sources: run \`node build.mjs\` again`);
  }
  return [GATEWAY_BUNDLE];
}
