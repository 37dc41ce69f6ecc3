import type { MonitoringAnswer } from '#contract';

/**
 * The monitor's short history: the last samples of host CPU and memory, kept in memory only
 * (the backend answers snapshots, not series). Pure functions over an immutable array, so React
 * state and the tests use them the same way.
 */

export const HISTORY_SIZE = 60;

export interface Sample {
  /** Unix seconds of the snapshot. */
  t: number;
  cpu: number;
  memory: number;
}

export function percent(part: number, total: number): number {
  if (!Number.isFinite(part) || !Number.isFinite(total) || total <= 0) return 0;
  return Math.min(100, Math.max(0, (part / total) * 100));
}

/** A snapshot as a sample; null when its time is unreadable. */
export function sampleOf(answer: MonitoringAnswer): Sample | null {
  const ms = Date.parse(answer.time);
  if (Number.isNaN(ms)) return null;
  return {
    t: ms / 1000,
    cpu: Math.min(100, Math.max(0, answer.host.cpu.usagePercent)),
    memory: percent(answer.host.memory.usedBytes, answer.host.memory.totalBytes),
  };
}

/**
 * Adds a sample, keeping time order and the last `max` samples. The same snapshot seen twice
 * (cache re-read, remount) is not counted again; one older than the newest replaces nothing.
 */
export function appendSample(
  history: readonly Sample[],
  sample: Sample,
  max: number = HISTORY_SIZE,
): readonly Sample[] {
  const last = history[history.length - 1];
  if (last && sample.t <= last.t) {
    if (history.some((s) => s.t === sample.t)) return history;
    const next = [...history, sample].sort((a, b) => a.t - b.t);
    return next.length > max ? next.slice(next.length - max) : next;
  }
  const next = history.length >= max ? history.slice(history.length - max + 1) : history.slice();
  next.push(sample);
  return next;
}

/** The history as uPlot columns: time, CPU %, memory %. */
export function historyColumns(history: readonly Sample[]): [number[], number[], number[]] {
  return [history.map((s) => s.t), history.map((s) => s.cpu), history.map((s) => s.memory)];
}
