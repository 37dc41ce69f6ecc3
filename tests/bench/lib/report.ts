import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../support/paths.js';

export const RESULTS_DIR = path.join(REPO_ROOT, 'tests', 'bench', 'results');

/** One performance budget against its measured figure; null pass means it could not be measured. */
export interface BudgetCheck {
  budget: string;
  measured: string;
  limit: string;
  pass: boolean | null;
}

export interface ScenarioResult {
  scenario: string;
  /** Printed notes: skipped parts, missing tools, how a figure was taken. */
  notes: string[];
  budgets: BudgetCheck[];
  figures: Record<string, unknown>;
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function fixed(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || Number.isNaN(value)) return 'n/a';
  return value.toFixed(digits);
}

export function mib(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return 'n/a';
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function kib(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return 'n/a';
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** Prints an aligned table: first row is the header. */
export function printTable(title: string, rows: (string | number)[][]): void {
  const text = rows.map((row) => row.map(String));
  const widths = text[0]!.map((_, column) => Math.max(...text.map((row) => (row[column] ?? '').length)));
  console.log(`\n${title}`);
  for (const [index, row] of text.entries()) {
    console.log(
      `  ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')}`,
    );
    if (index === 0) console.log(`  ${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  }
}

export function printBudgets(budgets: BudgetCheck[]): void {
  if (budgets.length === 0) return;
  printTable('budgets', [
    ['budget', 'measured', 'limit', 'verdict'],
    ...budgets.map((b) => [b.budget, b.measured, b.limit, b.pass === null ? 'N/A' : b.pass ? 'PASS' : 'MISS']),
  ]);
}

export function machine(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryBytes: os.totalmem(),
    loadAverage: os.loadavg(),
    platform: `${os.type()} ${os.release()}`,
  };
}

export function writeResult(result: ScenarioResult): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${result.scenario}.json`);
  writeFileSync(file, `${JSON.stringify({ machine: machine(), ...result }, null, 2)}\n`);
  return file;
}
