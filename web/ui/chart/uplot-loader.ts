import uPlot from 'uplot';
import { UPLOT_CSS } from './uplot-css.js';

/**
 * Imported only through `import()`, so uPlot and its stylesheet travel in a chunk of their own and
 * the pages around a chart render before it arrives. The stylesheet is injected rather than
 * linked because the build emits a single Tailwind stylesheet and nothing else.
 */
function injectStyles(): void {
  if (document.getElementById('uplot-styles')) return;
  const style = document.createElement('style');
  style.id = 'uplot-styles';
  style.textContent = UPLOT_CSS;
  document.head.append(style);
}

injectStyles();

export default uPlot;

/** A tooltip that follows the cursor: the x value as heading, then each visible series. */
export function tooltipPlugin(heading: (x: number) => string): uPlot.Plugin {
  let box: HTMLDivElement | null = null;

  const hide = () => {
    if (box) box.style.display = 'none';
  };

  return {
    hooks: {
      init: (u) => {
        box = document.createElement('div');
        box.className = 'u-tooltip';
        box.setAttribute('role', 'tooltip');
        box.dataset.testid = 'chart-tooltip';
        box.style.display = 'none';
        u.over.append(box);
        u.over.addEventListener('mouseleave', hide);
      },
      setCursor: (u) => {
        const idx = u.cursor.idx;
        const left = u.cursor.left ?? -1;
        if (!box || idx == null || left < 0) return hide();
        const x = u.data[0][idx];
        if (x == null) return hide();
        const rows: HTMLElement[] = [];
        const title = document.createElement('div');
        title.className = 'u-tooltip-title';
        title.textContent = heading(x);
        rows.push(title);
        u.series.forEach((s, i) => {
          if (i === 0 || s.show === false) return;
          const v = u.data[i]?.[idx];
          const row = document.createElement('div');
          const mark = document.createElement('span');
          mark.className = 'u-tooltip-mark';
          mark.style.background =
            typeof s.stroke === 'function' ? (s.stroke(u, i) as string) : String(s.stroke ?? '#409eff');
          row.append(
            mark,
            `${String(s.label ?? '')}: ${s.value && v != null ? String((s.value as (u: uPlot, v: number, si: number, idx: number) => string)(u, v, i, idx)) : '–'}`,
          );
          rows.push(row);
        });
        box.replaceChildren(...rows);
        box.style.display = 'block';
        // Keep the box inside the plot: flip to the left of the cursor past the middle.
        const overWidth = u.over.clientWidth;
        const flip = left > overWidth / 2;
        box.style.left = flip ? '' : `${left + 12}px`;
        box.style.right = flip ? `${overWidth - left + 12}px` : '';
        box.style.top = `${Math.max(0, (u.cursor.top ?? 0) - 10)}px`;
      },
      destroy: () => {
        box?.remove();
        box = null;
      },
    },
  };
}

/** Aligns day ticks on UTC midnights, the days the backend counts in. */
export const utcDate = (seconds: number): Date => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC');

/**
 * The last point is a period still being counted: each line stops solid at the one before it,
 * and its last segment is drawn dashed and lighter, so today's part-day reads as unfinished
 * rather than as a fall. Lines with fewer than two points are drawn as they are.
 */
export function partialLastPlugin(): uPlot.Plugin {
  const linear = uPlot.paths.linear!();
  return {
    opts: (_u, opts) => {
      opts.series.forEach((s, i) => {
        if (i === 0) return;
        s.paths = (u, si, i0, i1) => {
          const last = u.data[0].length - 1;
          return linear(u, si, i0, last >= 1 ? Math.min(i1, last - 1) : i1);
        };
      });
    },
    hooks: {
      draw: (u) => {
        const xs = u.data[0];
        const n = xs.length;
        if (n < 2) return;
        const ctx = u.ctx;
        u.series.forEach((s, i) => {
          if (i === 0 || s.show === false) return;
          const y0 = u.data[i]?.[n - 2];
          const y1 = u.data[i]?.[n - 1];
          if (y0 == null || y1 == null) return;
          const scale = s.scale ?? 'y';
          ctx.save();
          ctx.beginPath();
          ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
          ctx.clip();
          ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
          ctx.globalAlpha = 0.55;
          ctx.strokeStyle = typeof s.stroke === 'function' ? String(s.stroke(u, i)) : String(s.stroke ?? '#409eff');
          ctx.lineWidth = (s.width ?? 2) * devicePixelRatio;
          ctx.beginPath();
          ctx.moveTo(u.valToPos(xs[n - 2]!, 'x', true), u.valToPos(y0, scale, true));
          ctx.lineTo(u.valToPos(xs[n - 1]!, 'x', true), u.valToPos(y1, scale, true));
          ctx.stroke();
          ctx.restore();
        });
      },
    },
  };
}
