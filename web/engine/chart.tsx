import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';

export interface ChartSeries {
  label: string;
  /** Money is drawn on its own right-hand axis, already divided by 100. */
  money: boolean;
  values: (number | null)[];
}

export interface ChartProps {
  /** Unix seconds of each point. */
  x: number[];
  series: ChartSeries[];
  height: number;
  fontPx: number;
  /** Accessible name of the chart. */
  label: string;
  moneyLabel: string;
  countLabel: string;
}

const COLOURS = ['#409EFF', '#67C23A', '#E6A23C', '#F56C6C', '#8E44AD', '#16A085', '#909399'];

function injectStyles(css: string): void {
  if (document.getElementById('uplot-css')) return;
  const style = document.createElement('style');
  style.id = 'uplot-css';
  // The legend follows the size setting (root font) instead of uPlot's fixed 14px.
  style.textContent = `${css}.u-legend{font-size:0.875rem}`;
  document.head.append(style);
}

/** A time-series chart; uPlot is fetched only when the first chart mounts. */
export function Chart({ x, series, height, fontPx, label, moneyLabel, countLabel }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: uPlot | null = null;
    let cancelled = false;
    const observer = new ResizeObserver(() => {
      if (plot) plot.setSize({ width: Math.max(200, el.clientWidth), height });
    });
    void Promise.all([import('uplot'), import('./chart-styles.js')]).then(([{ default: UPlot }, { UPLOT_CSS }]) => {
      if (cancelled) return;
      injectStyles(UPLOT_CSS);
      const font = `${fontPx}px system-ui, sans-serif`;
      const hasMoney = series.some((s) => s.money);
      const hasCount = series.some((s) => !s.money);
      const axes: uPlot.Axis[] = [{ font, stroke: '#475569', grid: { stroke: '#e2e8f0' } }];
      // Wide enough for the longest tick ("250,000.00") at the current font size.
      const size = (_self: uPlot, values: string[] | null) => Math.ceil(Math.max(4, ...(values ?? []).map((v) => v.length)) * fontPx * 0.62) + fontPx * 2;
      if (hasCount) axes.push({ scale: 'count', label: countLabel, labelFont: font, font, size, stroke: '#475569', grid: { stroke: '#e2e8f0' } });
      if (hasMoney) axes.push({ scale: 'money', label: moneyLabel, labelFont: font, font, size, side: 1, stroke: '#475569', grid: { show: !hasCount } });
      plot = new UPlot(
        {
          width: Math.max(200, el.clientWidth),
          height,
          scales: { x: { time: true } },
          axes,
          series: [
            {},
            ...series.map((s, i) => ({
              label: s.label,
              scale: s.money ? 'money' : 'count',
              stroke: COLOURS[i % COLOURS.length],
              width: 2,
              value: (_: uPlot, v: number | null) => (v === null ? '—' : s.money ? v.toFixed(2) : String(v)),
            })),
          ],
          legend: { live: true },
        },
        [x, ...series.map((s) => s.values)],
        el,
      );
      observer.observe(el);
    });
    return () => {
      cancelled = true;
      observer.disconnect();
      plot?.destroy();
    };
  }, [x, series, height, fontPx, moneyLabel, countLabel]);

  return <div ref={box} role="img" aria-label={label} className="w-full overflow-hidden" style={{ minHeight: height }} data-testid="chart" />;
}
