import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/**
 * A chart drawn by uPlot (issue 12). Chosen over ECharts for size and speed: ~20 KB gzip against
 * several hundred, canvas drawing that redraws 10k points in a frame, and it lives in the Reports
 * page's own chunk, so the first page never loads it. Every chart has its data table beside it
 * (the accessible equivalent and what a screen reader reads); the canvas is an image with a summary.
 */
export interface ChartSeries {
  label: string;
  values: readonly number[];
}

export interface ChartProps {
  /** `hbar`: one horizontal bar per label, top to bottom (groups, whose names need the width). */
  kind: 'line' | 'bar' | 'hbar';
  /** The x axis: one label per point (periods, or group names for a bar chart of groups). */
  labels: readonly string[];
  series: readonly ChartSeries[];
  /** Values on the y axis and in the legend (money or counts). */
  format: (value: number) => string;
  /** A short description for assistive technology ("Card spend by month, last 12 months"). */
  summary: string;
  /** A click on a point or bar: its index in `labels`. */
  onSelect?: (index: number) => void;
  height?: number;
}

/** The palette: CSS custom properties (light and dark), resolved to colours canvas understands. */
const PALETTE = ['--chart-1', '--chart-2', '--chart-3', '--chart-4', '--chart-5', '--chart-6', '--chart-7'];

function resolveColours(host: HTMLElement): { series: string[]; axis: string; grid: string } {
  const probe = document.createElement('span');
  host.appendChild(probe);
  const read = (v: string) => {
    probe.style.color = `var(${v})`;
    return getComputedStyle(probe).color;
  };
  const out = { series: PALETTE.map(read), axis: read('--text-3'), grid: read('--border') };
  probe.remove();
  return out;
}

/** A label cut to `n` characters with an ellipsis (the table beside the chart has it whole). */
const clip = (label: string, n: number) => (label.length > n ? `${label.slice(0, n - 1)}…` : label);

export function Chart({ kind, labels, series, format, summary, onSelect, height: fixed }: ChartProps) {
  const height = fixed ?? (kind === 'hbar' ? 40 + 30 * labels.length : 240);
  const host = useRef<HTMLDivElement>(null);
  const select = useRef(onSelect);
  useEffect(() => {
    select.current = onSelect;
  });

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const colours = resolveColours(el);
    const xs = labels.map((_, i) => i);
    const data: uPlot.AlignedData = [xs, ...series.map((s) => [...s.values])];
    const horizontal = kind === 'hbar';
    const barred = kind !== 'line';
    const bars = barred ? uPlot.paths.bars!({ size: [series.length > 1 ? 0.8 : horizontal ? 0.7 : 0.6, horizontal ? 28 : 64], gap: 2 }) : undefined;
    const width = Math.max(280, el.clientWidth);
    // Long group names get the room they need on the left, within reason.
    const labelWidth = horizontal ? Math.min(180, 16 + 7 * Math.max(0, ...labels.map((l) => l.length))) : 0;
    const xAxis: uPlot.Axis = {
      stroke: colours.axis,
      grid: { show: false },
      ticks: { show: false },
      // A label per index; skipped ones when they would overlap.
      values: (_u, splits) => splits.map((i) => (Number.isInteger(i) ? clip(labels[i] ?? '', horizontal ? 24 : 16) : '')),
      incrs: [1, 2, 3, 4, 6, 12, 24, 52],
      // Every group is named (they are few); periods thin out when they would overlap.
      ...(horizontal ? { side: 3, size: labelWidth, gap: 6, space: 12 } : { space: 64 }),
    };
    const yAxis: uPlot.Axis = {
      stroke: colours.axis,
      grid: { stroke: colours.grid, width: 1 },
      ticks: { show: false },
      values: (_u, splits) => splits.map((v) => format(v)),
      ...(horizontal ? { side: 2, size: 32, space: 72 } : { size: 72 }),
    };
    const opts: uPlot.Options = {
      width,
      height,
      padding: [12, 12, 0, 4],
      legend: { show: series.length > 1, live: true },
      cursor: { points: { show: kind === 'line' }, drag: { x: false, y: false } },
      scales: {
        // Horizontal: x (the groups) runs down the left, first group on top; y (values) along the bottom.
        x: { time: false, ...(horizontal ? { ori: 1, dir: -1 } : {}), range: (_u, min, max) => (barred ? [min - 0.5, max + 0.5] : [min, max]) },
        y: { ...(horizontal ? { ori: 0, dir: 1 } : {}), range: (_u, min, max) => [Math.min(0, min), max <= 0 ? 1 : max * 1.08] },
      },
      axes: [xAxis, yAxis],
      series: [
        { label: 'Period', value: (_u, i) => (i === null ? '' : (labels[i] ?? '')) },
        ...series.map((s, i): uPlot.Series => {
          const colour = colours.series[i % colours.series.length]!;
          return {
            label: s.label,
            stroke: colour,
            width: barred ? 0 : 2,
            fill: barred ? colour : undefined,
            paths: bars,
            points: { show: kind === 'line' && labels.length <= 40, size: 5, fill: colour },
            value: (_u, v) => (v === null ? '–' : format(v)),
          };
        }),
      ],
    };
    const chart = new uPlot(opts, data, el);
    const click = () => {
      const idx = chart.cursor.idx;
      if (idx !== null && idx !== undefined) select.current?.(idx);
    };
    chart.over.addEventListener('click', click);
    chart.over.style.cursor = onSelect ? 'pointer' : 'default';
    const resize = new ResizeObserver(() => {
      const w = Math.max(280, el.clientWidth);
      if (w !== chart.width) chart.setSize({ width: w, height });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.over.removeEventListener('click', click);
      chart.destroy();
    };
    // The chart is rebuilt when what it shows changes; `onSelect` is read through its ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, labels, series, format, height, Boolean(onSelect)]);

  return <div ref={host} className="chart" role="img" aria-label={summary} />;
}
