import path from 'node:path';
import { BackendMap } from '../../server/backend-map/engine.js';
import { consoleCalls } from '../../server/backend-map/calls.js';
import { loadBackendMap } from '../../server/backend-map/load.js';
import { RESOURCES } from '../../server/contract/index.js';
import { BackendClient } from '../../sandbox/client.js';
import { startSandbox } from '../../sandbox/start.js';
import { REPO_ROOT } from '../support/paths.js';
import type { BenchContext } from './lib/context.js';
import { fixed, percentile, printBudgets, type BudgetCheck, type ScenarioResult } from './lib/report.js';

/**
 * What the backend map adds at the gateway: translating a real 100-row answer of the legacy
 * dialect (the users list, every field renamed or converted somewhere) back into the console's
 * shape, timed in process over many batches. The request side is a handful of parameters and
 * does not show beside it.
 */
export async function backendMapScenario(context: BenchContext): Promise<ScenarioResult> {
  const sandbox = await startSandbox({ dialect: 'legacy', withdrawalTickMs: 0 });
  try {
    const client = new BackendClient(sandbox.url);
    const session = await client.login('admin', 'admin123');
    const json = (await client.call('/manage/user/page', { session, query: { current: 1, size: 100 } })).envelope;
    const map = new BackendMap(loadBackendMap(path.join(REPO_ROOT, 'sandbox/legacy-map.json')));
    const users = RESOURCES.find((r) => r.id === 'users')!;
    const prepared = map.prepare(
      consoleCalls(users).find((c) => c.kind === 'list')!,
      { pageNum: 1, pageSize: 100 },
    );
    if ('unsupported' in prepared) throw new Error('the legacy map leaves the users list out');

    const batches = context.quick ? 50 : 400;
    const perBatch = 20;
    for (let i = 0; i < 500; i++) map.answer(prepared, 200, {}, json);
    const times: number[] = [];
    for (let b = 0; b < batches; b++) {
      const start = performance.now();
      for (let i = 0; i < perBatch; i++) map.answer(prepared, 200, {}, json);
      times.push((performance.now() - start) / perBatch);
    }
    times.sort((a, b) => a - b);
    const median = percentile(times, 50);
    const p99 = percentile(times, 99);
    const rows = (map.answer(prepared, 200, {}, json).body.data as { list: unknown[] }).list.length;
    console.log(
      `  mapping a ${rows}-row users list of the legacy dialect: median ${fixed(median, 3)} ms, p99 ${fixed(p99, 3)} ms (${batches} batches of ${perBatch})`,
    );
    const budgets: BudgetCheck[] = [
      {
        budget: 'backend map: a 100-row list answer mapped back (median)',
        measured: `${fixed(median, 3)} ms`,
        limit: '<= 1 ms',
        pass: median <= 1,
      },
      {
        budget: 'backend map: a 100-row list answer mapped back (p99 of batches)',
        measured: `${fixed(p99, 3)} ms`,
        limit: '<= 1 ms',
        pass: p99 <= 1,
      },
    ];
    printBudgets(budgets);
    return {
      scenario: 'map',
      notes: [`${rows} rows, in process`],
      budgets,
      figures: { medianMs: median, p99Ms: p99, rows, batches, perBatch },
    };
  } finally {
    await sandbox.close();
  }
}
