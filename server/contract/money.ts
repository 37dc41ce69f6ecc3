/** An amount in the smallest unit as the console writes it: whole units, a point, two decimals ("-12.05"). */
export function centsText(value: number | string | null | undefined): string {
  const n = typeof value === 'string' ? Number(value) : value;
  if (n === null || n === undefined || !Number.isFinite(n)) return '0.00';
  // Integer arithmetic first so 0.1 + 0.2 style errors never reach the label.
  const cents = Math.round(n);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
