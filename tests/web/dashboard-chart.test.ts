import { describe, expect, it } from 'vitest';
import type uPlot from 'uplot';
import {
  CHART_FONT_PX,
  buildChartOptions,
  headingWithPartial,
  niceMax,
  xFormatter,
  type ChartSpec,
} from '../../web/ui/chart/chart-spec.js';

const spec: ChartSpec = {
  xKind: 'day',
  xLabel: '日期',
  locale: 'zh-CN',
  left: { label: '数量', format: (v) => `${v}` },
  right: { label: '金额', format: (v) => `¥${v}` },
  series: [
    { label: '注册数', color: '#409eff', axis: 'left', format: (v) => `${v} 人` },
    { label: '充值', color: '#f56c6c', axis: 'right', format: (v) => v.toFixed(2) },
  ],
};

const fake = {} as uPlot;

describe('chart options', () => {
  it('labels axes and legend with the translated texts and puts money on a second axis', () => {
    const o = buildChartOptions(spec, { width: 600, height: 300, fontPx: 13 });
    expect(o.axes?.map((a) => a.label)).toEqual(['日期', '数量', '金额']);
    expect(o.axes?.[2]?.side).toBe(1);
    expect(o.axes?.[2]?.scale).toBe('right');
    expect(o.series.map((s) => s.label)).toEqual(['日期', '注册数', '充值']);
    expect(o.series.map((s) => s.scale)).toEqual([undefined, 'left', 'right']);
  });

  it('formats ticks and tooltip values with the series formatters', () => {
    const o = buildChartOptions(spec, { width: 600, height: 300, fontPx: 13 });
    const values = o.axes?.[2]?.values as (u: uPlot, splits: number[]) => string[];
    expect(values(fake, [0, 500])).toEqual(['¥0', '¥500']);
    const value = o.series[2]?.value as (u: uPlot, v: number | null) => string;
    expect(value(fake, 12.5)).toBe('12.50');
    expect(value(fake, null)).toBe('–');
    const day = o.series[0]?.value as (u: uPlot, v: number | null) => string;
    expect(day(fake, Date.UTC(2024, 2, 5) / 1000)).toContain('3月5日');
  });

  it('scales the axis text with the size setting and never goes below 11 px', () => {
    for (const px of Object.values(CHART_FONT_PX)) {
      const o = buildChartOptions(spec, { width: 600, height: 300, fontPx: px });
      expect(o.axes?.[0]?.font).toBe(`${px}px system-ui, sans-serif`);
      expect(px).toBeGreaterThanOrEqual(11);
    }
    expect(CHART_FONT_PX.default).toBeGreaterThan(CHART_FONT_PX.mini);
  });

  it('keeps a fixed range when one is given (percentages)', () => {
    const o = buildChartOptions(
      { ...spec, right: undefined, left: { ...spec.left, range: [0, 100] } },
      { width: 400, height: 200, fontPx: 12 },
    );
    expect(o.scales?.left?.range).toEqual([0, 100]);
    expect(o.axes).toHaveLength(2);
  });

  it('fits an auto axis from zero to a round number above the data', () => {
    expect(niceMax(87)).toBe(100);
    expect(niceMax(1234)).toBe(2000);
    expect(niceMax(2200)).toBe(2500);
    expect(niceMax(0)).toBe(1);
    expect(niceMax(null)).toBe(1);
  });

  it('formats x values as UTC days or as local clock times', () => {
    const day = xFormatter({ xKind: 'day', locale: 'en-US' }, 'tick');
    expect(day(Date.UTC(2024, 0, 31) / 1000)).toBe('Jan 31');
    const time = xFormatter({ xKind: 'time', locale: 'en-US' }, 'tick');
    expect(time(Date.UTC(2024, 0, 31, 10, 5, 7) / 1000)).toMatch(/^\d{2}:05:07$/);
  });
});

describe('a last day still being counted', () => {
  it('names the last day as partial in the tooltip heading, and no other day', () => {
    const days = [Date.UTC(2024, 2, 4) / 1000, Date.UTC(2024, 2, 5) / 1000];
    const heading = headingWithPartial(
      { ...spec, locale: 'en', partialLast: { label: 'Today so far' } },
      () => days[1],
    );
    expect(heading(days[1]!)).toMatch(/Mar 5.* · Today so far$/);
    expect(heading(days[0]!)).not.toContain('Today so far');
    const whole = headingWithPartial({ ...spec, locale: 'en' }, () => days[1]);
    expect(whole(days[1]!)).not.toContain('Today so far');
  });

  it('names it in the x series value the legend and tooltip read', () => {
    const o = buildChartOptions(
      { ...spec, locale: 'en', partialLast: { label: 'Today so far' } },
      {
        width: 600,
        height: 300,
        fontPx: 13,
      },
    );
    const day = o.series[0]?.value as (u: uPlot, v: number | null) => string;
    const plot = { data: [[Date.UTC(2024, 2, 4) / 1000, Date.UTC(2024, 2, 5) / 1000]] } as unknown as uPlot;
    expect(day(plot, Date.UTC(2024, 2, 5) / 1000)).toContain('Today so far');
    expect(day(plot, Date.UTC(2024, 2, 4) / 1000)).not.toContain('Today so far');
  });
});
