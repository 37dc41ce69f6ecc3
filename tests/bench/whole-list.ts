import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { BackendMap } from '../../server/backend-map/engine.js';
import { consoleCalls } from '../../server/backend-map/calls.js';
import { loadBackendMap } from '../../server/backend-map/load.js';
import { GatewayLists, type ListSession } from '../../server/backend-map/gateway-lists.js';
import { KeptStore } from '../../server/backend-map/kept-store.js';
import { RESOURCES } from '../../server/contract/index.js';
import { REPO_ROOT } from '../support/paths.js';
import type { BenchContext } from './lib/context.js';
import {
  fixed,
  mib,
  percentile,
  printBudgets,
  printTable,
  type BudgetCheck,
  type ScenarioResult,
} from './lib/report.js';

/**
 * A full collection before each heap reading: without it the kept list's size was lost in the
 * garbage of the read that made it (readings came out negative). The bench runs in the bench's
 * own process, started without --expose-gc, so the flag is set here.
 */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

/**
 * The gateway's own work for a backend that answers whole lists (ejabberd's registered_users),
 * through the shipped ejabberd map: a 100-row page of 10,000 and 100,000 accounts searched,
 * sorted and paged at the gateway, with each row's nickname and last seen from their per-row
 * calls. The backend is answered in process at once, so what is timed is the gateway's part
 * (ejabberd's own time apart): the first read (mapping every item) and then pages of the kept list.
 */
export async function wholeListScenario(context: BenchContext): Promise<ScenarioResult> {
  const map = new BackendMap(loadBackendMap(path.join(REPO_ROOT, 'server/backend-map/bindings/ejabberd.json'), {}));
  const users = RESOURCES.find((r) => r.id === 'users')!;
  const list = consoleCalls(users).find((c) => c.kind === 'list')!;
  const rows: (string | number)[][] = [];
  const figures: Record<string, number> = {};
  const budgets: BudgetCheck[] = [];
  for (const size of [10_000, 100_000]) {
    const names = Array.from({ length: size }, (_, i) => `user${String(i).padStart(6, '0')}`);
    const send = async (request: { path: string; body?: { text: string } }) => {
      if (request.path.endsWith('/registered_users')) return { status: 200, json: names };
      if (request.path.endsWith('/get_vcard')) return { status: 200, json: { content: 'Nick' } };
      return { status: 200, json: { timestamp: '2026-11-30T10:00:00Z', status: 'offline' } };
    };
    const lists = new GatewayLists(map, send, new KeptStore(null), { wholeTtlMs: 3_600_000, rowTtlMs: 3_600_000 });
    const session: ListSession = { id: 's1', token: 't', userId: 'admin@localhost', account: 'admin' };
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    const coldStart = performance.now();
    await lists.answer(list, { pageNum: 1, pageSize: 100 }, session);
    const cold = performance.now() - coldStart;
    collectGarbage();
    const heap = process.memoryUsage().heapUsed - heapBefore;
    const pages = context.quick ? 50 : 400;
    // Every page read once first: their rows' per-row values are then kept, as on a second visit.
    const queries = Array.from({ length: pages }, (_, i) => ({
      pageNum: 1 + (i % Math.floor(size / 100)),
      pageSize: 100,
      sort: i % 2 === 0 ? 'account' : '-account',
      ...(i % 5 === 0 ? { keyword: `user0${i % 10}` } : {}),
    }));
    for (const q of queries) await lists.answer(list, q, session);
    const times: number[] = [];
    // The process's own CPU time per page too: on a busy machine the wall clock also counts the
    // time other processes held the cores, which the CPU time leaves out.
    const cpuTimes: number[] = [];
    for (const q of queries) {
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      await lists.answer(list, q, session);
      times.push(performance.now() - start);
      const cpu = process.cpuUsage(cpuStart);
      cpuTimes.push((cpu.user + cpu.system) / 1000);
    }
    times.sort((a, b) => a - b);
    cpuTimes.sort((a, b) => a - b);
    const median = percentile(times, 50);
    const p99 = percentile(times, 99);
    const cpuP99 = percentile(cpuTimes, 99);
    rows.push([
      size.toLocaleString('en'),
      fixed(cold, 1),
      fixed(median, 2),
      fixed(p99, 2),
      fixed(cpuP99, 2),
      mib(heap),
    ]);
    figures[`cold${size}Ms`] = cold;
    figures[`median${size}Ms`] = median;
    figures[`p99_${size}Ms`] = p99;
    figures[`cpuP99_${size}Ms`] = cpuP99;
    figures[`heap${size}Bytes`] = heap;
    if (size === 10_000)
      budgets.push({
        budget: 'whole list: a 100-row page of 10,000 accounts at the gateway (p99)',
        measured: `${fixed(p99, 2)} ms`,
        limit: '<= 5 ms',
        pass: p99 <= 5,
      });
  }
  printTable('a 100-row page of a whole list paged at the gateway (ejabberd map, backend answered in process)', [
    ['accounts', 'first read ms', 'page median ms', 'page p99 ms', 'page p99 CPU ms', 'heap of the kept list'],
    ...rows,
  ]);
  printBudgets(budgets);
  return { scenario: 'whole', notes: ['in process, ejabberd answered at once'], budgets, figures };
}
