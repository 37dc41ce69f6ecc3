/** Shared display helpers. */

export type TimeUnit = 'minute' | 'hour' | 'day';

/** Short elapsed-time label: minutes under an hour, hours under a day, otherwise days. */
export function shortTimeParts(seconds: number): { count: number; unit: TimeUnit } {
  const s = Math.max(0, Number.isFinite(seconds) ? seconds : 0);
  if (s < 3600) return { count: Math.floor(s / 60), unit: 'minute' };
  if (s < 86400) return { count: Math.floor(s / 3600), unit: 'hour' };
  return { count: Math.floor(s / 86400), unit: 'day' };
}

/** English label, e.g. "5 minutes", "1 hour". */
export function shortTimeLabel(seconds: number): string {
  const { count, unit } = shortTimeParts(seconds);
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** Money is stored in the smallest unit; shown divided by 100 with two decimals. */
export function formatAmount(value: number | string | null | undefined): string {
  const n = typeof value === 'string' ? Number(value) : value;
  if (n === null || n === undefined || !Number.isFinite(n)) return '0.00';
  // Integer arithmetic first so 0.1 + 0.2 style errors never reach the label.
  const cents = Math.round(n);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const SI = [
  { value: 1e18, symbol: 'E' },
  { value: 1e15, symbol: 'P' },
  { value: 1e12, symbol: 'T' },
  { value: 1e9, symbol: 'G' },
  { value: 1e6, symbol: 'M' },
  { value: 1e3, symbol: 'k' },
] as const;

/** 12345 -> "12.3k"; numbers under 1000 stay as they are. */
export function shortNumber(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  for (const { value: unit, symbol } of SI) {
    if (abs >= unit) {
      const text = (abs / unit).toFixed(digits).replace(/\.0+$|(\.[0-9]*[1-9])0+$/, '$1');
      return `${value < 0 ? '-' : ''}${text}${symbol}`;
    }
  }
  return String(value);
}

/** The badge shows at most 99. */
export function badgeText(count: number, max = 99): string {
  return count > max ? `${max}+` : String(count);
}

/** "2024-01-02 03:04:05" in local time; empty for a missing or bad value. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/**
 * Where the "Web version" link goes: the address the operator set, else the console's own host
 * with "admin" replaced by "im" (admin.chat.example.com -> im.chat.example.com). Null when neither
 * gives a host other than the console's own: a link back to the console would only mislead.
 */
export function webClientUrl(location: { protocol: string; host: string }, configured: string | null): string | null {
  if (configured) return configured;
  const host = location.host.replace('admin', 'im');
  return host === location.host ? null : `${location.protocol}//${host}/`;
}
