import { formatBytes } from '../lib/format.js';
import { language } from '../lib/settings.js';

/** Display helpers of the deployment screens. */

/** Memory, disks and traffic in binary units (KiB, MiB, GiB), as hosts report them, with the language's decimal mark. */
export function hostSize(bytes: number): string {
  return formatBytes(bytes, language.value, true);
}

export function formatPercent(value: number, digits = 1): string {
  return `${(Number.isFinite(value) ? value : 0).toFixed(digits)}%`;
}

/** Whole days, hours and minutes of an uptime. */
export function uptimeParts(seconds: number): { days: number; hours: number; minutes: number } {
  const s = Math.max(0, Number.isFinite(seconds) ? Math.floor(seconds) : 0);
  return { days: Math.floor(s / 86_400), hours: Math.floor((s % 86_400) / 3600), minutes: Math.floor((s % 3600) / 60) };
}
