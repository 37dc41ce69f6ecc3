import type {
  ImportDatabaseResult,
  MonitoringAnswer,
  RunnerConfig,
  RunnerState,
  RunnerSwitch,
  ServiceMetrics,
  ServiceStatus,
} from '../../server/contract/index.js';
import {
  RUNNER_LINK_SCHEMES,
  VALIDATION_MESSAGES_ZH,
  WEB_SCHEMES,
  isLink as isLinkText,
} from '../../server/contract/index.js';
import { badRequest } from '../errors.js';
import { Prng, hashText } from '../lib/prng.js';
import { HOUR, DAY, iso } from '../lib/time.js';

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

function isLink(value: unknown, schemes: readonly string[] = WEB_SCHEMES): value is string {
  return typeof value === 'string' && isLinkText(value.trim(), schemes);
}

interface ServiceState {
  name: string;
  version: string;
  baseCpu: number;
  baseMemory: number;
  connections: number;
  startedAt: number;
  cpu: number;
  memory: number;
  status: ServiceStatus;
}

const SERVICES: readonly [name: string, version: string, cpu: number, memoryMib: number, connections: number][] = [
  ['im-gateway', '3.8.2', 18, 900, 1800],
  ['im-logic', '3.8.2', 22, 1400, 0],
  ['api-server', '2.14.0', 9, 650, 240],
  ['push-worker', '1.6.4', 3, 220, 0],
  ['file-server', '1.9.1', 4, 380, 60],
  ['mysql', '8.0.36', 14, 3800, 180],
  ['redis', '7.2.4', 2, 760, 320],
  ['kafka', '3.6.1', 6, 2100, 48],
];

/** Moves a value towards its base with noise, the way a real gauge wanders. */
function drift(prng: Prng, value: number, base: number, spread: number, min: number, max: number): number {
  const next = value + (base - value) * 0.3 + prng.gaussian() * spread;
  return Math.min(max, Math.max(min, next));
}

function round(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}

/** The deployment screens' server side: start switches, runner config and a host that breathes. */
export class Deployment {
  readonly switches: Record<RunnerSwitch, boolean> = {
    moment: true,
    wallet: true,
    momentPublic: false,
    automaticRegister: true,
  };

  config: RunnerConfig = {
    apiUrl: 'https://api.chat.example.com',
    websocketUrl: 'wss://im.chat.example.com/ws',
    fileServerUrl: 'https://files.chat.example.com',
    maxUploadMb: 100,
    messageRetentionDays: 180,
    maxGroupMembers: 2000,
    workerCount: 4,
    logLevel: 'info',
  };

  private readonly host = {
    cores: 8,
    memoryTotal: 32 * GIB,
    diskTotal: 500 * GIB,
    cpu: 24,
    memory: 19 * GIB,
    disk: 212 * GIB,
    rx: 42 * MIB,
    tx: 57 * MIB,
    load: [1.9, 1.7, 1.6],
  };
  private readonly services: ServiceState[];
  private readonly bootTime: number;

  constructor(
    private readonly prng: Prng,
    now: number,
  ) {
    this.bootTime = now - 37 * DAY - 5 * HOUR;
    this.services = SERVICES.map(([name, version, cpu, memoryMib, connections]) => ({
      name,
      version,
      baseCpu: cpu,
      baseMemory: memoryMib * MIB,
      connections,
      startedAt: now - prng.int(2, 30) * DAY - prng.int(0, 23) * HOUR,
      cpu,
      memory: memoryMib * MIB,
      status: 'running',
    }));
  }

  runner(): RunnerState {
    return { ...this.switches, config: { ...this.config } };
  }

  /** Merges a partial config after checking every field; nothing is saved when one is wrong. */
  saveConfig(body: unknown): RunnerConfig {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw badRequest('The runner config must be an object');
    const input = body as Record<string, unknown>;
    const next: RunnerConfig = { ...this.config };
    for (const field of ['apiUrl', 'websocketUrl', 'fileServerUrl'] as const) {
      if (input[field] === undefined) continue;
      if (!isLink(input[field], RUNNER_LINK_SCHEMES[field])) throw badRequest(VALIDATION_MESSAGES_ZH.linkFormat);
      next[field] = (input[field] as string).trim();
    }
    const ranges = {
      maxUploadMb: [1, 2048],
      messageRetentionDays: [1, 3650],
      maxGroupMembers: [3, 100_000],
      workerCount: [1, 64],
    } as const;
    for (const [field, [min, max]] of Object.entries(ranges) as [keyof typeof ranges, readonly [number, number]][]) {
      const value = input[field];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
        throw badRequest(`${field} must be a whole number from ${min} to ${max}`);
      }
      next[field] = value;
    }
    if (input.logLevel !== undefined) {
      const levels = ['error', 'warn', 'info', 'debug'] as const;
      if (!levels.includes(input.logLevel as RunnerConfig['logLevel']))
        throw badRequest(`logLevel must be one of ${levels.join(', ')}`);
      next.logLevel = input.logLevel as RunnerConfig['logLevel'];
    }
    this.config = next;
    return { ...next };
  }

  monitoring(now: number): MonitoringAnswer {
    const p = this.prng;
    const h = this.host;
    h.cpu = drift(p, h.cpu, 24, 6, 2, 98);
    h.memory = drift(p, h.memory, 19 * GIB, 0.4 * GIB, 4 * GIB, h.memoryTotal * 0.97);
    // Disks only fill up (logs, uploads), slowly.
    h.disk = Math.min(h.diskTotal * 0.99, h.disk + Math.abs(p.gaussian()) * 4 * MIB);
    h.rx = drift(p, h.rx, 42 * MIB, 6 * MIB, MIB, 400 * MIB);
    h.tx = drift(p, h.tx, 57 * MIB, 8 * MIB, MIB, 400 * MIB);
    const instant = (h.cpu / 100) * h.cores;
    h.load = [
      (h.load[0] ?? 0) * 0.6 + instant * 0.4,
      (h.load[1] ?? 0) * 0.9 + instant * 0.1,
      (h.load[2] ?? 0) * 0.97 + instant * 0.03,
    ];

    const services: ServiceMetrics[] = this.services.map((s) => {
      s.cpu = drift(p, s.cpu, s.baseCpu, s.baseCpu * 0.2 + 0.5, 0.1, 100);
      s.memory = drift(p, s.memory, s.baseMemory, s.baseMemory * 0.03, s.baseMemory * 0.5, s.baseMemory * 2);
      // Now and then a service runs hot for a while, then recovers.
      s.status =
        s.status === 'degraded' ? (p.chance(0.5) ? 'running' : 'degraded') : p.chance(0.03) ? 'degraded' : 'running';
      return {
        name: s.name,
        version: s.version,
        status: s.status,
        cpuPercent: round(s.cpu, 1),
        memoryBytes: Math.round(s.memory),
        uptimeSeconds: Math.floor((now - s.startedAt) / 1000),
        connections: s.connections === 0 ? 0 : Math.max(0, Math.round(s.connections * (1 + p.gaussian() * 0.08))),
      };
    });

    return {
      time: iso(now),
      host: {
        hostname: 'chat-prod-01',
        os: 'Ubuntu 22.04.4 LTS (Linux 5.15.0-105-generic x86_64)',
        uptimeSeconds: Math.floor((now - this.bootTime) / 1000),
        cpu: {
          cores: h.cores,
          usagePercent: round(h.cpu, 1),
          load1: round(h.load[0]!, 2),
          load5: round(h.load[1]!, 2),
          load15: round(h.load[2]!, 2),
        },
        memory: { totalBytes: h.memoryTotal, usedBytes: Math.round(h.memory) },
        disk: { totalBytes: h.diskTotal, usedBytes: Math.round(h.disk) },
        network: { rxBytesPerSecond: Math.round(h.rx), txBytesPerSecond: Math.round(h.tx) },
      },
      services,
    };
  }

  /** A migration's outcome; the same link gives the same figures, as re-running the same dump would. */
  importDatabase(url: unknown, now: number): ImportDatabaseResult {
    if (!isLink(url)) throw badRequest(VALIDATION_MESSAGES_ZH.linkFormat);
    const link = url.trim();
    const p = new Prng(hashText(link));
    const importedUsers = p.int(200, 20_000);
    return {
      url: link,
      importedUsers,
      importedGroups: Math.round(importedUsers / p.int(8, 30)),
      importedMessages: importedUsers * p.int(40, 400),
      skippedRecords: p.int(0, 120),
      durationMs: p.int(4_000, 90_000),
      finishedAt: iso(now),
    };
  }
}
