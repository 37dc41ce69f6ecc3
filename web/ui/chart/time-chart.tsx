import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { useSignals } from '@preact/signals-react/runtime';
import { appliedScheme, size } from '../../lib/settings.js';
import { DENSITY } from '../density.js';
import { useT } from '../../i18n/index.js';
import { buildChartOptions, CHART_FONT_PX, headingWithPartial, type ChartSpec } from './chart-spec.js';

type Loader = typeof import('./uplot-loader.js');

let loaderPromise: Promise<Loader> | null = null;
function loadUplot(): Promise<Loader> {
  loaderPromise ??= import('./uplot-loader.js').catch((error: unknown) => {
    // A failed chunk download may succeed on the next attempt.
    loaderPromise = null;
    throw error;
  });
  return loaderPromise;
}

function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(Math.floor(el.clientWidth));
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

export interface TimeChartProps {
  spec: ChartSpec;
  data: uPlot.AlignedData;
  /** What the chart shows, read out instead of the canvas. */
  label: string;
  testId?: string;
  /** Shorter than the size setting's default, for small side charts. */
  heightScale?: number;
}

/**
 * A uPlot line chart sized to its container and to the size setting. uPlot loads on first use;
 * new data is pushed into the existing plot so a 5-second refresh does not rebuild the canvas.
 * `spec` must be memoised by the caller: a new spec rebuilds the chart.
 */
export function TimeChart({ spec, data, label, testId, heightScale = 1 }: TimeChartProps) {
  useSignals();
  const t = useT();
  const outer = useRef<HTMLDivElement>(null);
  const target = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(data);
  latest.current = data;
  const [lib, setLib] = useState<Loader | null>(null);
  const [failed, setFailed] = useState(false);
  const width = useWidth(outer);
  const fontPx = CHART_FONT_PX[size.value];
  const height = Math.round(DENSITY[size.value].chartHeight * heightScale);
  const scheme = appliedScheme.value;

  useEffect(() => {
    if (lib) return;
    let live = true;
    loadUplot().then(
      (m) => live && setLib(m),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [lib, failed]);

  // Width changes go through setSize below; rebuilding would drop the legend's toggles. So the
  // plot is built once there is a width, with the width of that moment.
  const widthNow = useRef(width);
  widthNow.current = width;
  const hasWidth = width > 0;
  useEffect(() => {
    const el = target.current;
    if (!lib || !el || !hasWidth) return;
    const options = buildChartOptions(
      spec,
      { width: widthNow.current, height, fontPx, scheme },
      {
        plugins: [
          lib.tooltipPlugin(headingWithPartial(spec, () => latest.current[0]?.at(-1))),
          ...(spec.partialLast ? [lib.partialLastPlugin()] : []),
        ],
        tzDate: spec.xKind === 'day' ? lib.utcDate : undefined,
      },
    );
    const u = new lib.default(options, latest.current, el);
    plot.current = u;
    return () => {
      u.destroy();
      plot.current = null;
    };
  }, [lib, spec, height, fontPx, scheme, hasWidth]);

  useEffect(() => {
    if (width > 0) plot.current?.setSize({ width, height });
  }, [width, height]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);

  const empty = (data[0]?.length ?? 0) === 0;
  return (
    // Contained in the inline axis: the canvas, drawn at the width of its last measure, must not
    // hold the figure (and every grid or flex track around it) open when the window narrows, or
    // the resize observer would never see a smaller width to redraw at.
    <figure
      ref={outer}
      className="relative m-0 w-full min-w-0 [contain:inline-size]"
      data-testid={testId}
      data-points={data[0]?.length ?? 0}
      data-partial-last={spec.partialLast ? 'true' : undefined}
    >
      <div ref={target} role="img" aria-label={label} style={{ minHeight: height }} />
      {failed && (
        <div
          role="alert"
          className="absolute inset-0 flex items-center justify-center gap-2 bg-white/80 text-sm text-red-700"
        >
          {t('dashboard.chartFailed')}
          <button type="button" className="btn" onClick={() => setFailed(false)}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {!failed && empty && (
        <p className="absolute inset-0 flex items-center justify-center text-sm text-slate-500">
          {t('dashboard.noData')}
        </p>
      )}
    </figure>
  );
}
