import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { Child } from '../support/child.js';
import { CHILDREN_DIR } from '../support/paths.js';
import { Cleanup, logFile, type BenchContext } from './lib/context.js';
import { findWrk, runLoad, runWrk, startLoadGenerator, type LoadAnswer } from './lib/load.js';
import { findNginx, startNginx } from './lib/nginx.js';
import { fixed, printBudgets, printTable, type BudgetCheck, type ScenarioResult } from './lib/report.js';
import { benchLogIn } from './lib/session.js';

/** An admin team's real load. */
const STEADY_RATE = 200;
const STEADY_CONNECTIONS = 16;
const PATH = '/manage/bench/users/list';
const HEADERS = { accept: 'application/json' };
/** The gateway's worker-per-core mode, measured beside the one-process default. */
const CLUSTER_WORKERS = 2;
const CLUSTER_TARGET = `gateway x${CLUSTER_WORKERS}`;

function signedMs(ms: number): string {
  return `${ms >= 0 ? '+' : ''}${fixed(ms, 2)} ms`;
}

interface TargetFigures {
  target: string;
  url: string;
  steady: LoadAnswer;
  saturation: LoadAnswer;
}

/**
 * The same ~1 KB JSON answer from the backend directly, through the gateway's real /manage proxy
 * path (session cookie, header rewriting, w-enable-mode check) and through nginx with a keep-alive
 * upstream: latency at a steady rate, then requests per second at saturation.
 */
export async function proxyScenario(context: BenchContext): Promise<ScenarioResult> {
  const cleanup = new Cleanup();
  const notes: string[] = [];
  const seconds = context.seconds;
  const warmupSeconds = context.quick ? 1 : 3;
  try {
    const { child: backend, ready: backendReady } = await Child.start(
      'json backend',
      path.join(CHILDREN_DIR, 'json-backend.ts'),
      {
        logFile: logFile(context, 'proxy-backend'),
      },
    );
    cleanup.add(() => backend.stop());
    const backendPort = backendReady.port!;

    const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-proxy-'));
    cleanup.add(() => rmSync(dataDir, { recursive: true, force: true }));
    const { child: gateway, ready: gatewayReady } = await Child.start(
      'gateway',
      path.join(CHILDREN_DIR, 'gateway.ts'),
      {
        env: {
          CHAT_BACKEND_URL: backendReady.url,
          LOG_LEVEL: 'warn',
          DATA_DIR: dataDir,
          UI_DIR: dataDir,
          NODE_ENV: 'production',
        },
        logFile: logFile(context, 'proxy-gateway'),
      },
    );
    cleanup.add(() => gateway.stop());

    // The same gateway as server/main.ts runs it with WORKERS=2: a cluster primary and two workers.
    const clusterDataDir = mkdtempSync(path.join(tmpdir(), 'bench-proxy-cluster-'));
    cleanup.add(() => rmSync(clusterDataDir, { recursive: true, force: true }));
    const { child: clusterGateway, ready: clusterReady } = await Child.start(
      CLUSTER_TARGET,
      path.join(CHILDREN_DIR, 'gateway.ts'),
      {
        env: {
          CHAT_BACKEND_URL: backendReady.url,
          LOG_LEVEL: 'warn',
          DATA_DIR: clusterDataDir,
          UI_DIR: clusterDataDir,
          NODE_ENV: 'production',
          WORKERS: String(CLUSTER_WORKERS),
        },
        logFile: logFile(context, 'proxy-gateway-cluster'),
        readyTimeoutMs: 90_000,
      },
    );
    cleanup.add(() => clusterGateway.stop('SIGTERM', 15_000));

    const targets: { target: string; url: string; gateway: boolean }[] = [
      { target: 'direct', url: backendReady.url!, gateway: false },
    ];
    const nginxBinary = findNginx();
    if (nginxBinary) {
      const nginx = await startNginx(nginxBinary, backendPort, 1);
      cleanup.add(() => nginx.stop());
      targets.push({ target: 'nginx', url: nginx.url, gateway: false });
      notes.push(`nginx: ${nginxBinary}, 1 worker process, upstream keep-alive pool of 128`);
    } else {
      notes.push('nginx is NOT installed (apt-get install -y nginx): the nginx column and its budgets are skipped');
    }
    targets.push({ target: 'gateway', url: gatewayReady.url!, gateway: true });
    targets.push({ target: CLUSTER_TARGET, url: clusterReady.url!, gateway: true });
    // A gateway serves /manage to a session it sealed: log in before each run, so that no run
    // outlives the minute after which every call would re-seal a stale cookie.
    const headersFor = async (url: string, gateway: boolean) =>
      gateway ? { ...HEADERS, cookie: await benchLogIn(url, 'bench-token') } : HEADERS;
    const cores = availableParallelism();
    notes.push(
      `${CLUSTER_TARGET}: WORKERS=${CLUSTER_WORKERS} (a cluster primary and ${CLUSTER_WORKERS} workers on one port); the load generator, ` +
        `the backend and both workers share this machine's ${cores} core${cores === 1 ? '' : 's'}, so the gain is what is left ` +
        'after the load generator and backend take their share, not what a dedicated core per worker would give',
    );

    const wrk = findWrk();
    notes.push(
      wrk
        ? `saturation: wrk -t1 -c${context.connections} for ${seconds} s`
        : `saturation: wrk is not installed (apt-get install -y wrk); undici generator with ${context.connections} connections instead, which may itself be the limit`,
    );
    notes.push(
      `steady: undici generator, open loop at ${STEADY_RATE} req/s over ${STEADY_CONNECTIONS} connections for ${seconds} s`,
    );

    const generator = await startLoadGenerator(logFile(context, 'proxy-load'));
    cleanup.add(() => generator.stop());

    const figures: TargetFigures[] = [];
    for (const { target, url, gateway: isGateway } of targets) {
      const origin = new URL(url).origin;
      // Checks the path answers 200 before measuring, so a broken setup does not produce figures.
      const probe = await runLoad(generator, {
        origin,
        path: PATH,
        headers: await headersFor(url, isGateway),
        mode: 'saturate',
        durationMs: warmupSeconds * 1000,
        connections: context.connections,
      });
      const ok = probe.statuses['200'] ?? 0;
      if (ok === 0 || probe.errors > 0 || ok !== probe.requests) {
        throw new Error(`${target}: warm-up answered ${JSON.stringify(probe.statuses)} with ${probe.errors} errors`);
      }
      const steady = await runLoad(generator, {
        origin,
        path: PATH,
        headers: await headersFor(url, isGateway),
        mode: 'rate',
        rate: STEADY_RATE,
        durationMs: seconds * 1000,
        connections: STEADY_CONNECTIONS,
      });
      const saturationHeaders = await headersFor(url, isGateway);
      const saturation = wrk
        ? await runWrk(wrk, `${origin}${PATH}`, saturationHeaders, context.connections, seconds)
        : await runLoad(generator, {
            origin,
            path: PATH,
            headers: saturationHeaders,
            mode: 'saturate',
            durationMs: seconds * 1000,
            connections: context.connections,
          });
      figures.push({ target, url, steady, saturation });
    }

    // The gain of WORKERS=2 from alternating short saturation runs, one worker then two, so that
    // a load change elsewhere on the machine hits both sides of each pair alike; the median pair counts.
    const saturate = async (url: string, runSeconds: number) => {
      const origin = new URL(url).origin;
      const headers = await headersFor(url, true);
      return wrk
        ? runWrk(wrk, `${origin}${PATH}`, headers, context.connections, runSeconds)
        : runLoad(generator, {
            origin,
            path: PATH,
            headers,
            mode: 'saturate',
            durationMs: runSeconds * 1000,
            connections: context.connections,
          });
    };
    const gainRounds = context.quick ? 1 : 5;
    const gainSeconds = Math.max(2, Math.round(seconds / 2));
    const pairs: { single: number; cluster: number; ratio: number }[] = [];
    for (let round = 0; round < gainRounds; round++) {
      const single = (await saturate(gatewayReady.url!, gainSeconds)).rps;
      const clustered = (await saturate(clusterReady.url!, gainSeconds)).rps;
      pairs.push({ single, cluster: clustered, ratio: clustered / single });
    }
    const byRatio = [...pairs].sort((a, b) => a.ratio - b.ratio);
    const medianGain = byRatio[Math.floor((byRatio.length - 1) / 2)]!.ratio;
    notes.push(
      `gain of WORKERS=${CLUSTER_WORKERS}: ${gainRounds} alternating pair(s) of ${gainSeconds} s saturation runs, the median ratio counts`,
    );

    printTable(`proxy: ~1 KB JSON, steady ${STEADY_RATE} req/s and saturation (${context.connections} connections)`, [
      [
        'target',
        'steady p50 ms',
        'steady p99 ms',
        'steady errors',
        'sat. req/s',
        'sat. p50 ms',
        'sat. p99 ms',
        'sat. errors',
      ],
      ...figures.map((f) => [
        f.target,
        fixed(f.steady.p50, 2),
        fixed(f.steady.p99, 2),
        f.steady.errors,
        fixed(f.saturation.rps, 0),
        fixed(f.saturation.p50, 2),
        fixed(f.saturation.p99, 2),
        f.saturation.errors,
      ]),
    ]);

    const by = (name: string) => figures.find((f) => f.target === name);
    const gw = by('gateway')!;
    const direct = by('direct')!;
    const nginx = by('nginx');
    const cluster = by(CLUSTER_TARGET)!;
    const ratios = {
      clusterToSingleRps: medianGain,
      clusterToNginxRps: nginx ? cluster.saturation.rps / nginx.saturation.rps : null,
      gatewayToNginxRps: nginx ? gw.saturation.rps / nginx.saturation.rps : null,
      gatewayToDirectRps: gw.saturation.rps / direct.saturation.rps,
      nginxToDirectRps: nginx ? nginx.saturation.rps / direct.saturation.rps : null,
      gatewayMinusNginxP50Ms: nginx ? gw.steady.p50 - nginx.steady.p50 : null,
      gatewayMinusNginxP99Ms: nginx ? gw.steady.p99 - nginx.steady.p99 : null,
    };
    printTable(`proxy: gain of WORKERS=${CLUSTER_WORKERS} over 1, alternating saturation runs`, [
      ['pair', 'gateway req/s', `${CLUSTER_TARGET} req/s`, 'ratio'],
      ...pairs.map((p, i) => [i + 1, fixed(p.single, 0), fixed(p.cluster, 0), fixed(p.ratio, 2)]),
      ['median', '', '', fixed(medianGain, 2)],
    ]);

    printTable('proxy: ratios', [
      ['figure', 'value'],
      ['gateway / nginx, saturation req/s', fixed(ratios.gatewayToNginxRps, 2)],
      [
        `${CLUSTER_TARGET} / gateway, saturation req/s (gain of WORKERS=${CLUSTER_WORKERS}, median pair)`,
        fixed(ratios.clusterToSingleRps, 2),
      ],
      [`${CLUSTER_TARGET} / nginx, saturation req/s`, fixed(ratios.clusterToNginxRps, 2)],
      ['gateway / direct, saturation req/s', fixed(ratios.gatewayToDirectRps, 2)],
      ['nginx / direct, saturation req/s', fixed(ratios.nginxToDirectRps, 2)],
      ['gateway - nginx, steady p50 ms', fixed(ratios.gatewayMinusNginxP50Ms, 2)],
      ['gateway - nginx, steady p99 ms', fixed(ratios.gatewayMinusNginxP99Ms, 2)],
    ]);

    const budgets: BudgetCheck[] = [
      {
        budget: 'proxy: steady p50 over nginx',
        measured: ratios.gatewayMinusNginxP50Ms === null ? 'no nginx' : signedMs(ratios.gatewayMinusNginxP50Ms),
        limit: '<= +1 ms',
        pass: ratios.gatewayMinusNginxP50Ms === null ? null : ratios.gatewayMinusNginxP50Ms <= 1,
      },
      {
        budget: 'proxy: steady p99 over nginx',
        measured: ratios.gatewayMinusNginxP99Ms === null ? 'no nginx' : signedMs(ratios.gatewayMinusNginxP99Ms),
        limit: '<= +3 ms',
        pass: ratios.gatewayMinusNginxP99Ms === null ? null : ratios.gatewayMinusNginxP99Ms <= 3,
      },
      {
        budget: 'proxy: saturation vs nginx (one core)',
        measured: ratios.gatewayToNginxRps === null ? 'no nginx' : `${fixed(ratios.gatewayToNginxRps, 2)}x`,
        limit: '>= 0.30x',
        pass: ratios.gatewayToNginxRps === null ? null : ratios.gatewayToNginxRps >= 0.3,
      },
      {
        budget: 'proxy: gain from a worker per core',
        measured: `${fixed(ratios.clusterToSingleRps, 2)}x (WORKERS=${CLUSTER_WORKERS} over 1, ${cores} shared cores)`,
        limit: '> 1.00x',
        pass: ratios.clusterToSingleRps > 1,
      },
    ];
    for (const note of notes) console.log(`  note: ${note}`);
    printBudgets(budgets);
    return {
      scenario: 'proxy',
      notes,
      budgets,
      figures: {
        targets: figures,
        ratios,
        workerGainPairs: pairs,
        steadyRate: STEADY_RATE,
        connections: context.connections,
        seconds,
      },
    };
  } finally {
    await cleanup.run();
  }
}
