/**
 * `npm run bench`: the scenarios of issue 7, each printing its tables and budgets and writing its
 * figures to tests/bench/results/<scenario>.json; a summary of every budget closes the run.
 *
 *   --only proxy,decode,events,events-redis,ui,map,audit,upload,records,whole,ejabberd-ui   run a subset (in this order)
 *   --seconds N                     length of each measured load run (default 10)
 *   --connections N                 keep-alive connections at saturation (default 64)
 *   --quick                         short runs to check the machinery (figures are not meaningful)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_LOG_DIR, type BenchContext, type Scenario } from './lib/context.js';
import { RESULTS_DIR, machine, printBudgets, writeResult, type ScenarioResult } from './lib/report.js';
import { proxyScenario } from './proxy.js';
import { decodeScenario } from './decode.js';
import { eventsScenario } from './events.js';
import { eventsRedisScenario } from './events-redis.js';
import { uiScenario } from './ui.js';
import { backendMapScenario } from './backend-map.js';
import { auditScenario } from './audit.js';
import { uploadScenario } from './upload.js';
import { recordScenario } from './ui-record.js';
import { wholeListScenario } from './whole-list.js';
import { ejabberdUiScenario } from './ejabberd-ui.js';

const SCENARIOS: Record<string, Scenario> = {
  proxy: proxyScenario,
  decode: decodeScenario,
  events: eventsScenario,
  'events-redis': eventsRedisScenario,
  ui: uiScenario,
  map: backendMapScenario,
  audit: auditScenario,
  upload: uploadScenario,
  records: recordScenario,
  whole: wholeListScenario,
  'ejabberd-ui': ejabberdUiScenario,
};

function argValue(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  if (index !== -1) return process.argv[index + 1];
  const inline = process.argv.find((arg) => arg.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}

function positiveInt(name: string, fallback: number): number {
  const raw = argValue(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name} must be a positive whole number, got "${raw}"`);
    process.exit(2);
  }
  return value;
}

const quick = process.argv.includes('--quick');
const only = argValue('--only');
const names = only
  ? only
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
  : Object.keys(SCENARIOS);
for (const name of names) {
  if (!SCENARIOS[name]) {
    console.error(`unknown scenario "${name}"; choose from ${Object.keys(SCENARIOS).join(', ')}`);
    process.exit(2);
  }
}

const context: BenchContext = {
  quick,
  seconds: positiveInt('--seconds', quick ? 3 : 10),
  connections: positiveInt('--connections', 64),
  logDir: DEFAULT_LOG_DIR,
};
mkdirSync(context.logDir, { recursive: true });

const info = machine();
console.log(
  `bench on ${String(info.cpus)} x ${String(info.cpuModel)}, node ${String(info.node)}, ${String(info.date)}`,
);
console.log(
  `load average at start: ${(info.loadAverage as number[]).map((n) => n.toFixed(2)).join(' ')} (figures are noisy when the machine is busy)`,
);
if (quick) console.log('--quick: short runs; the figures check the machinery only');

const results: ScenarioResult[] = [];
const failures: string[] = [];
for (const name of names) {
  console.log(`\n=== ${name} ===`);
  const started = performance.now();
  try {
    const result = await SCENARIOS[name]!(context);
    results.push(result);
    console.log(
      `  (${((performance.now() - started) / 1000).toFixed(0)} s; figures in ${path.relative(process.cwd(), writeResult(result))})`,
    );
  } catch (error) {
    failures.push(name);
    console.error(`  ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    console.error(`  child logs are in ${path.relative(process.cwd(), context.logDir)}/`);
  }
}

console.log('\n=== summary ===');
printBudgets(results.flatMap((r) => r.budgets));
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(
  path.join(RESULTS_DIR, 'summary.json'),
  `${JSON.stringify({ machine: info, quick, scenarios: names, failed: failures, budgets: results.flatMap((r) => r.budgets.map((b) => ({ scenario: r.scenario, ...b }))) }, null, 2)}\n`,
);
if (failures.length > 0) {
  console.error(`\nscenarios that could not run: ${failures.join(', ')}`);
  process.exitCode = 1;
}
