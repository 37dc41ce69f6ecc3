import { RESOURCES } from '../contract/index.js';

/** Two-person approval, from DUAL_CONTROL_ABOVE, DUAL_CONTROL_TTL_HOURS, DUAL_CONTROL_SETTINGS and DUAL_CONTROL_MAX_OPEN. */
export interface DualControlConfig {
  /** Withdrawal approvals above this amount (smallest unit) are held; null: none are. */
  above: number | null;
  /** How long a hold waits for its second approver. */
  ttlHours: number;
  /** Settings screens (resource ids) whose saves are held. */
  settings: readonly string[];
  /** DUAL_CONTROL_MAX_OPEN: held calls one administrator may have waiting at once. */
  maxOpen: number;
}

export const DEFAULT_MAX_OPEN = 20;
const MAX_MAX_OPEN = 10_000;

type Env = Record<string, string | undefined>;
/** How a bad value stops the start: config.ts turns it into its ConfigError. */
type Fail = (variable: string, reason: string) => never;

const SETTINGS_IDS: readonly string[] = RESOURCES.filter((r) => r.kind === 'settings').map((r) => r.id);
const MAX_TTL_HOURS = 24 * 30;

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

export function loadDualControl(env: Env, fail: Fail): DualControlConfig {
  const aboveText = text(env, 'DUAL_CONTROL_ABOVE');
  let above: number | null = null;
  if (aboveText !== undefined) {
    if (!/^\d+$/.test(aboveText) || !Number.isSafeInteger(Number(aboveText))) {
      fail(
        'DUAL_CONTROL_ABOVE',
        `must be an amount in the smallest unit (a whole number, 10000 for 100.00), got "${aboveText}"`,
      );
    }
    above = Number(aboveText);
  }

  const ttlText = text(env, 'DUAL_CONTROL_TTL_HOURS');
  let ttlHours = 24;
  if (ttlText !== undefined) {
    const value = /^\d+$/.test(ttlText) ? Number(ttlText) : Number.NaN;
    if (!(value >= 1 && value <= MAX_TTL_HOURS))
      fail('DUAL_CONTROL_TTL_HOURS', `must be a whole number of hours from 1 to ${MAX_TTL_HOURS}, got "${ttlText}"`);
    ttlHours = value;
  }

  const settings: string[] = [];
  for (const part of (text(env, 'DUAL_CONTROL_SETTINGS') ?? '').split(',')) {
    const id = part.trim();
    if (id === '') continue;
    if (!SETTINGS_IDS.includes(id)) {
      fail(
        'DUAL_CONTROL_SETTINGS',
        `"${id}" is not a settings screen; the settings screens are ${SETTINGS_IDS.join(', ')}`,
      );
    }
    if (!settings.includes(id)) settings.push(id);
  }
  const openText = text(env, 'DUAL_CONTROL_MAX_OPEN');
  let maxOpen = DEFAULT_MAX_OPEN;
  if (openText !== undefined) {
    const value = /^\d+$/.test(openText) ? Number(openText) : Number.NaN;
    if (!(value >= 1 && value <= MAX_MAX_OPEN))
      fail('DUAL_CONTROL_MAX_OPEN', `must be a whole number from 1 to ${MAX_MAX_OPEN}, got "${openText}"`);
    maxOpen = value;
  }
  return { above, ttlHours, settings, maxOpen };
}

/** Whether any call is held at all. */
export function dualControlOn(config: DualControlConfig): boolean {
  return config.above !== null || config.settings.length > 0;
}
