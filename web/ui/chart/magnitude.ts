/**
 * Which series may share a y axis. On one axis a series whose peak is a tenth of another's is
 * drawn in the bottom tenth of the plot, and at a hundredth it is a flat line at zero: registrations
 * beside 50,000 messages read as "nothing happened". Series are therefore grouped by unit (counts
 * never share an axis with amounts) and, within a unit, by order of magnitude; each group gets an
 * axis of its own.
 */

/** A series whose peak is more than this many times below its group's largest starts a group of its own. */
export const SHARED_AXIS_RATIO = 10;

export interface MeasuredSeries {
  /** What its values count: series of different units never share an axis. */
  unit: string;
  /** The largest absolute value it shows (0 for a series without any). */
  peak: number;
}

/** The largest absolute finite value of a column; 0 when it has none. */
export function peakOf(values: readonly (number | null | undefined)[]): number {
  let peak = 0;
  for (const v of values) if (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) > peak) peak = Math.abs(v);
  return peak;
}

/**
 * The series' indices in groups that may share an axis, each group in declaration order and the
 * groups in the order of their first series. Peaks under 1 count as 1, so a series of zeros joins
 * the small ones rather than getting an axis of nothing (unless every other series is large).
 */
export function magnitudeGroups(series: readonly MeasuredSeries[], ratio = SHARED_AXIS_RATIO): number[][] {
  const groupOf = new Array<number>(series.length);
  const groups: { unit: string; top: number }[] = [];
  const byPeak = series.map((s, i) => ({ ...s, i })).sort((a, b) => b.peak - a.peak || a.i - b.i);
  for (const s of byPeak) {
    const size = Math.max(s.peak, 1);
    const fits = groups.findIndex((g) => g.unit === s.unit && g.top / size <= ratio);
    if (fits >= 0) groupOf[s.i] = fits;
    else groupOf[s.i] = groups.push({ unit: s.unit, top: size }) - 1;
  }
  const members = groups.map(() => [] as number[]);
  series.forEach((_, i) => members[groupOf[i]!]!.push(i));
  return members.sort((a, b) => a[0]! - b[0]!);
}
