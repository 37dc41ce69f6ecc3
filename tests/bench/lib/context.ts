import path from 'node:path';
import type { ScenarioResult } from './report.js';
import { RESULTS_DIR } from './report.js';

export interface BenchContext {
  /** Shorter runs (for checking the machinery, not for figures). */
  quick: boolean;
  /** Length of each measured load run, seconds. */
  seconds: number;
  /** Keep-alive connections of the saturation runs. */
  connections: number;
  /** Where children write their logs. */
  logDir: string;
}

export type Scenario = (context: BenchContext) => Promise<ScenarioResult>;

export function logFile(context: BenchContext, name: string): string {
  return path.join(context.logDir, `${name}.log`);
}

export const DEFAULT_LOG_DIR = path.join(RESULTS_DIR, 'logs');

/** Cleanup steps run in reverse, each once, whatever failed before. */
export class Cleanup {
  private readonly steps: (() => Promise<unknown> | unknown)[] = [];

  add(step: () => Promise<unknown> | unknown): void {
    this.steps.push(step);
  }

  async run(): Promise<void> {
    while (this.steps.length > 0) {
      const step = this.steps.pop()!;
      try {
        await step();
      } catch (error) {
        console.error(`cleanup step failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
