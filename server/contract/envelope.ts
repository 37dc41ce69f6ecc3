/** The chat backend's answer envelope. Every answer, the gateway's own errors included, has this shape. */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data?: T;
}

export const SUCCESS_CODE = 200;

/** Codes the UI lets through without a toast: the screen that called shows its own message. */
export const SILENT_CODES: readonly number[] = [401, 600, 601];

/** Header that flags an encoded answer body: 1 = AES, 3 = AES over compressed JSON. */
export const ENABLE_MODE_HEADER = 'w-enable-mode';
export const TOKEN_HEADER = 'w-token';
export const USER_ID_HEADER = 'w-userId';

export function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number';
}
