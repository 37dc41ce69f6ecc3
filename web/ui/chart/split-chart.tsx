import { useMemo } from 'react';
import type uPlot from 'uplot';
import type { ChartAxisSpec, ChartSeriesSpec, ChartSpec } from './chart-spec.js';
import { magnitudeGroups, peakOf } from './magnitude.js';
import { TimeChart } from './time-chart.js';

export interface SplitSeries extends Omit<ChartSeriesSpec, 'axis'> {
  /** Stable name of the series (the field it charts), for tests and for keeping panels apart. */
  key: string;
  /** Names an entry of `axes`: series of different units never share a panel. */
  unit: string;
}

export interface SplitChartSpec extends Pick<ChartSpec, 'xKind' | 'xLabel' | 'locale' | 'partialLast'> {
  series: readonly SplitSeries[];
  /** Each unit's axis: its label (used when a panel holds several series) and tick format. */
  axes: Readonly<Record<string, ChartAxisSpec>>;
}

export interface SplitChartProps {
  spec: SplitChartSpec;
  /** x, then one column per series of `spec.series`, in that order. */
  data: uPlot.AlignedData;
  label: string;
  testId?: string;
  /** Panels side by side from the `lg` breakpoint (a full-width page); stacked otherwise. */
  columns?: boolean;
}

/**
 * Series over time, split into as many panels as their sizes need (see magnitude.ts): each panel
 * has its own axis, so a series of tens is never drawn flat beside one of tens of thousands. One
 * panel when they all fit one axis. `spec` must be memoised by the caller.
 */
export function SplitChart({ spec, data, label, testId, columns = false }: SplitChartProps) {
  const peaks = spec.series.map((_, i) => peakOf((data[i + 1] ?? []) as (number | null)[]));
  const groups = magnitudeGroups(spec.series.map((s, i) => ({ unit: s.unit, peak: peaks[i]! })));
  // The grouping as text: panels (and their uPlot instances) are rebuilt only when it changes.
  const layout = groups.map((g) => g.join(',')).join('|');

  const panels = useMemo(
    () =>
      layout.split('|').map((part) => {
        const members = part.split(',').map(Number);
        const groupCount = layout.split('|').length;
        const series = members.map((i) => spec.series[i]!);
        const axis = spec.axes[series[0]!.unit]!;
        const panelSpec: ChartSpec = {
          xKind: spec.xKind,
          xLabel: spec.xLabel,
          // Dates under dates need no "Date" under each panel.
          xAxisUnlabelled: groupCount > 1,
          locale: spec.locale,
          ...(spec.partialLast ? { partialLast: spec.partialLast } : {}),
          // A lone series names its own axis; a shared axis says what its series count.
          left: { ...axis, label: series.length === 1 ? series[0]!.label : axis.label },
          series: series.map((s) => ({ label: s.label, color: s.color, format: s.format, axis: 'left' as const })),
        };
        return { members, keys: series.map((s) => s.key).join(','), spec: panelSpec };
      }),
    [layout, spec],
  );
  const panelData = useMemo(
    () => panels.map((p) => [data[0] ?? [], ...p.members.map((i) => data[i + 1] ?? [])] as uPlot.AlignedData),
    [panels, data],
  );

  const many = panels.length > 1;
  return (
    <div
      className={`grid min-w-0 gap-4 ${many && columns ? 'lg:grid-cols-2' : ''}`}
      data-testid={testId}
      data-points={data[0]?.length ?? 0}
      data-panels={panels.length}
    >
      {panels.map((p, i) => (
        <div key={p.keys} className="min-w-0" data-chart-panel={p.keys}>
          <TimeChart
            spec={p.spec}
            data={panelData[i]!}
            label={many ? `${label}: ${p.spec.series.map((s) => s.label).join(', ')}` : label}
            heightScale={many ? 0.7 : 1}
          />
        </div>
      ))}
    </div>
  );
}
