import { useEffect, useRef, useState } from 'react';
import { currencyExponent } from '../../../schema/money.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';
import { chartColumns, historySummary } from './treasury-words.ts';

export interface BalanceChartProps {
  name: string;
  currency: string;
  history: readonly { day: string; closing: number }[];
}

/** A CSS custom property resolved to a colour canvas understands (light or dark, as the page shows). */
function colour(host: HTMLElement, property: string): string {
  const probe = document.createElement('span');
  host.appendChild(probe);
  probe.style.color = `var(${property})`;
  const value = getComputedStyle(probe).color;
  probe.remove();
  return value;
}

/** Bumped when the theme changes (a pinned theme on <html>, or the system's scheme), so the canvas is redrawn in its colours. */
function useThemeTurn(): number {
  const [turn, setTurn] = useState(0);
  useEffect(() => {
    const bump = () => setTurn((n) => n + 1);
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    media?.addEventListener('change', bump);
    const observer = new MutationObserver(bump);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      media?.removeEventListener('change', bump);
      observer.disconnect();
    };
  }, []);
  return turn;
}

/**
 * An account's closing balance per day (the mirror's `history`, offline too) drawn by uPlot,
 * which is fetched by this page only when a chart is shown (its own chunk, never the first load).
 * The canvas is an image named by its summary; the same figures are a table under "Show as a
 * table" (what a screen reader or a keyboard reads).
 */
export function BalanceChart({ name, currency, history }: BalanceChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const theme = useThemeTurn();
  const [failed, setFailed] = useState(false);
  const summary = historySummary(history, currency);

  useEffect(() => {
    const el = host.current;
    if (!el || history.length === 0) return;
    let chart: { destroy(): void; setSize(s: { width: number; height: number }): void; width: number } | null = null;
    let resize: ResizeObserver | null = null;
    let live = true;
    const exponent = currencyExponent(currency);
    Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (!live) return;
      const line = colour(el, '--brand');
      const axis = colour(el, '--text-3');
      const grid = colour(el, '--border');
      const height = 220;
      const width = () => Math.max(260, el.clientWidth);
      chart = new UPlot({
        width: width(), height, padding: [12, 12, 0, 4],
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), max <= 0 ? 1 : max * 1.08] } },
        axes: [
          { stroke: axis, grid: { show: false }, ticks: { show: false }, space: 72, values: (_u, splits) => splits.map((s) => formatDay(s * 1000).replace(/, \d{4}$/, '')) },
          { stroke: axis, grid: { stroke: grid, width: 1 }, ticks: { show: false }, size: 80, values: (_u, splits) => splits.map((v) => formatMoney(Math.round(v * 10 ** exponent), currency)) },
        ],
        series: [{}, { label: name, stroke: line, width: 2, points: { show: history.length <= 31, size: 5, fill: line } }],
      }, chartColumns(history, exponent), el);
      resize = new ResizeObserver(() => {
        if (chart && width() !== chart.width) chart.setSize({ width: width(), height });
      });
      resize.observe(el);
    }, () => live && setFailed(true));
    return () => {
      live = false;
      resize?.disconnect();
      chart?.destroy();
    };
  }, [name, currency, history, theme]);

  return (
    <figure className="tr-chart">
      {history.length > 0 && !failed && <div ref={host} className="chart" role="img" aria-label={`Balance of ${name} over time. ${summary}`} />}
      <figcaption className="muted">{failed ? `The chart could not be loaded. ${summary}` : summary}</figcaption>
      {history.length > 0 && (
        <details className="tr-history">
          <summary>Show as a table</summary>
          <div className="tr-table-wrap" role="region" aria-label={`Closing balances of ${name}`} tabIndex={0}>
            <table className="tr-table">
              <caption className="sr-only">Closing balance of {name} per day, in {currency}</caption>
              <thead><tr><th scope="col">Day</th><th scope="col" className="num">Closing balance ({currency})</th></tr></thead>
              <tbody>
                {[...history].reverse().map((h) => (
                  <tr key={h.day}><th scope="row">{formatDay(h.day)}</th><td className="num">{formatMoney(h.closing, currency)}</td></tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </figure>
  );
}
