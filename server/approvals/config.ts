import { RESOURCES } from '../contract/index.js';

/** Two-person approval, from DUAL_CONTROL_ABOVE, DUAL_CONTROL_TTL_HOURS and DUAL_CONTROL_SETTINGS. */
export interface DualControlConfig {
  /** Withdrawal approvals above this amount (smallest unit) are held; null: none are. */
  above: number | null;
  /** How long a hold waits for its second approver. */
  ttlHours: number;
  /** Settings screens (resource ids) whose saves are held. */
  settings: readonly string[];
}

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
  return { above, ttlHours, settings };
}

/** Whether any call is held at all. */
export function dualControlOn(config: DualControlConfig): boolean {
  return config.above !== null || config.settings.length > 0;
}
