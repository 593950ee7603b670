/**
 * The cost curve (issue 13): how every figure grows with N (transactions) across the runs of one
 * `npm run bench -- --curve` (N = 10k, 100k, and 1M with `--scale`). Pure: a results object in,
 * Markdown and SVG out (bench/run.ts writes them).
 *
 * Growth between successive runs is the ratio of the values and its exponent
 * e = log(value ratio) / log(N ratio) (with N × 10, e = log10(ratio)): e = 1 is linear, 0 flat.
 * The rule each figure is held to is stated on the value's own exponent:
 * - a cost (time, size, heap): e ≤ 1, no worse than linear; search p95 (local, in the worker): e < 1;
 * - a rate whose job is one fixed-size request (keyset pages per second): its cost per request is
 *   1/rate, so e ≥ −1;
 * - a rate over the whole data set (change-feed rows per second): the pull takes N/rate, which
 *   is linear only while the rate does not fall: e ≥ 0.
 * A figure passes when every step passes.
 */
import type { BenchResults, Metrics } from './metrics.ts';
import { METRIC_ORDER, formatValue } from './report.ts';

/** The N of a curve run: `sizes` (comma-separated), else 10k and 100k, and 1M with `scale`. */
export function curveSizes(opts: { scale: boolean; sizes?: string | undefined }): number[] {
  const sizes = opts.sizes ? opts.sizes.split(',').map(Number) : [10_000, 100_000, ...(opts.scale ? [1_000_000] : [])];
  for (const n of sizes) {
    if (!Number.isInteger(n) || n < 100 || n > 1_000_000) throw new Error(`bench: --curve-sizes: ${n} is not a size from 100 to 1,000,000`);
  }
  const distinct = [...new Set(sizes)].sort((a, b) => a - b);
  if (distinct.length < 2) throw new Error('bench: a curve needs at least two sizes');
  return distinct;
}

export type GrowthRule = 'linear' | 'sub-linear' | 'rate-per-request' | 'rate-over-all';

const SUB_LINEAR: ReadonlySet<keyof Metrics> = new Set(['local_search_p95_ms', 'reimbursement_search_p95_ms']);
const RATES: Partial<Record<keyof Metrics, GrowthRule>> = {
  server_page_rps: 'rate-per-request',
  server_page_pg_rps: 'rate-per-request',
  change_feed_rows_per_s: 'rate-over-all',
};

export function ruleOf(key: keyof Metrics): GrowthRule {
  return RATES[key] ?? (SUB_LINEAR.has(key) ? 'sub-linear' : 'linear');
}

const RULE_LABEL: Record<GrowthRule, string> = {
  linear: 'e ≤ 1',
  'sub-linear': 'e < 1',
  'rate-per-request': 'e ≥ −1',
  'rate-over-all': 'e ≥ 0',
};

export function passes(rule: GrowthRule, exponent: number): boolean {
  switch (rule) {
    case 'linear': return exponent <= 1;
    case 'sub-linear': return exponent < 1;
    case 'rate-per-request': return exponent >= -1;
    case 'rate-over-all': return exponent >= 0;
  }
}

export interface Point {
  n: number;
  value: number | null;
}

export interface Step {
  from: number;
  to: number;
  /** value(to) / value(from); NaN when either is missing or not positive. */
  ratio: number;
  exponent: number;
}

const usable = (v: number | null): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

/** The growth between each pair of successive points (sorted by n). */
export function growthSteps(points: readonly Point[]): Step[] {
  const sorted = [...points].sort((a, b) => a.n - b.n);
  return sorted.slice(1).map((p, i) => {
    const prev = sorted[i]!;
    if (!usable(prev.value) || !usable(p.value) || p.n <= prev.n) return { from: prev.n, to: p.n, ratio: Number.NaN, exponent: Number.NaN };
    const ratio = p.value / prev.value;
    return { from: prev.n, to: p.n, ratio, exponent: Math.log(ratio) / Math.log(p.n / prev.n) };
  });
}

/** Whether a figure meets its rule at every step; null when no step can be judged. */
export function verdict(key: keyof Metrics, steps: readonly Step[]): boolean | null {
  const judged = steps.filter((s) => Number.isFinite(s.exponent));
  if (judged.length === 0) return null;
  return judged.every((s) => passes(ruleOf(key), s.exponent));
}

export interface FigureCurve {
  key: keyof Metrics;
  points: Point[];
  steps: Step[];
  rule: GrowthRule;
  ok: boolean | null;
}

/** Every figure of METRIC_ORDER across the runs. */
export function figureCurves(runs: readonly BenchResults[]): FigureCurve[] {
  const sorted = [...runs].sort((a, b) => a.transactions - b.transactions);
  return METRIC_ORDER.map((key) => {
    const points = sorted.map((r) => ({ n: r.transactions, value: (r.metrics[key] as number | null | undefined) ?? null }));
    const steps = growthSteps(points);
    return { key, points, steps, rule: ruleOf(key), ok: verdict(key, steps) };
  });
}

const fmtN = (n: number) => n.toLocaleString('en-US');
const fmt2 = (x: number) => (Number.isFinite(x) ? (Math.round(x * 100) / 100).toFixed(2) : 'n/a');
const yesNo = (ok: boolean | null) => (ok === null ? 'n/a' : ok ? 'yes' : 'no');

/**
 * The curve as Markdown for docs/performance.md: a row per N for every figure (value, × the
 * previous N's value, the exponent of that step), the rule, and the verdict on the figure's last
 * row; then one line naming the figures that miss their rule.
 */
export function curveTable(runs: readonly BenchResults[]): string {
  const curves = figureCurves(runs);
  const ns = [...runs].map((r) => r.transactions).sort((a, b) => a - b);
  const lines = [
    `Cost curve: N = ${ns.map(fmtN).join(', ')} transactions (reimbursements N / 5); e = log(value ratio) / log(N ratio).`,
    '',
    '| figure | N | value | × previous N | e | rule | met |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const c of curves) {
    c.points.forEach((p, i) => {
      const step = i > 0 ? c.steps[i - 1] : undefined;
      const last = i === c.points.length - 1;
      lines.push(`| ${i === 0 ? `\`${c.key}\`` : ''} | ${fmtN(p.n)} | ${formatValue(p.value)} | ${step ? (Number.isFinite(step.ratio) ? `×${fmt2(step.ratio)}` : 'n/a') : ''} | ${step ? fmt2(step.exponent) : ''} | ${i === 0 ? RULE_LABEL[c.rule] : ''} | ${last ? yesNo(c.ok) : ''} |`);
    });
  }
  lines.push('', curveSummary(curves));
  return lines.join('\n');
}

/** One line: whether every figure grows within its rule, naming those that do not. */
export function curveSummary(curves: readonly FigureCurve[]): string {
  const missed = curves.filter((c) => c.ok === false).map((c) => `\`${c.key}\``);
  const unjudged = curves.filter((c) => c.ok === null).map((c) => `\`${c.key}\``);
  const head = missed.length === 0
    ? 'Every judged figure grows within its rule (no worse than linear; local search p95 sub-linear).'
    : `Worse than their rule: ${missed.join(', ')}.`;
  return unjudged.length ? `${head} Not judged (missing values): ${unjudged.join(', ')}.` : head;
}

/** The figures the chart draws (costs only, so every line reads "lower is better"). */
export const CHART_FIGURES: readonly (keyof Metrics)[] = [
  'mirror_ms', 'raw_idb_put_ms', 'first_page_ms', 'cold_start_first_page_ms', 'search_ready_ms', 'local_search_p95_ms',
  'online_search_p95_ms', 'worker_heap_mb', 'server_page_p99_ms', 'bulk_code_acked_ms',
];

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];

const shortN = (n: number) => (n >= 1e6 && n % 1e5 === 0 ? `${n / 1e6}M` : n >= 1000 && n % 100 === 0 ? `${n / 1000}k` : String(n));
const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A log-log chart of the main figures against N, each relative to its value at the smallest N
 * (so milliseconds and megabytes share one axis and the slope is the growth exponent), with the
 * linear (slope 1) and flat references dashed. Plain SVG text, no library.
 */
export function costCurveSvg(runs: readonly BenchResults[], figures: readonly (keyof Metrics)[] = CHART_FIGURES): string {
  const W = 720;
  const H = 400;
  const pad = { left: 60, right: 220, top: 36, bottom: 44 };
  const curves = figureCurves(runs).filter((c) => figures.includes(c.key));
  const ns = [...new Set(runs.map((r) => r.transactions))].sort((a, b) => a - b);
  const n0 = ns[0] ?? 1;
  const nMax = ns[ns.length - 1] ?? n0;
  const series = curves.map((c) => {
    const base = c.points.find((p) => p.n === n0)?.value ?? null;
    const pts = usable(base) ? c.points.filter((p) => usable(p.value)).map((p) => ({ n: p.n, rel: (p.value as number) / base })) : [];
    return { key: c.key, pts };
  }).filter((s) => s.pts.length >= 2);
  const rels = [1, nMax / n0, ...series.flatMap((s) => s.pts.map((p) => p.rel))];
  const yLo = Math.floor(Math.log10(Math.min(...rels)));
  const yHi = Math.max(yLo + 1, Math.ceil(Math.log10(Math.max(...rels))));
  const xLo = Math.log10(n0);
  const xHi = Math.max(xLo + 1e-9, Math.log10(nMax));
  const x = (n: number) => pad.left + ((Math.log10(n) - xLo) / (xHi - xLo)) * (W - pad.left - pad.right);
  const y = (rel: number) => H - pad.bottom - ((Math.log10(rel) - yLo) / (yHi - yLo)) * (H - pad.top - pad.bottom);
  const r = (v: number) => Math.round(v * 10) / 10;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    '<title>Ledgerline cost curve</title>',
    `<desc>Each figure relative to its value at N = ${fmtN(n0)}, against N (transactions), both axes logarithmic; the dashed diagonal is linear growth.</desc>`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${pad.left}" y="20" font-size="13" font-weight="bold">Cost curve: each figure ÷ its value at N = ${shortN(n0)} (log-log)</text>`,
  ];
  // Decades, and ×2 and ×5 between them when there are few decades to label.
  const ticks = [];
  for (let e = yLo; e <= yHi; e++) ticks.push(10 ** e, ...(yHi - yLo <= 2 && e < yHi ? [2 * 10 ** e, 5 * 10 ** e] : []));
  for (const t of ticks) {
    const yy = r(y(t));
    const label = t >= 1 ? String(t) : String(Number(t.toPrecision(1)));
    out.push(`<line x1="${pad.left}" y1="${yy}" x2="${W - pad.right}" y2="${yy}" stroke="#e5e5e5"/>`, `<text x="${pad.left - 6}" y="${yy + 4}" text-anchor="end">×${label}</text>`);
  }
  for (const n of ns) {
    const xx = r(x(n));
    out.push(`<line x1="${xx}" y1="${pad.top}" x2="${xx}" y2="${H - pad.bottom}" stroke="#e5e5e5"/>`, `<text x="${xx}" y="${H - pad.bottom + 16}" text-anchor="middle">${shortN(n)}</text>`);
  }
  out.push(`<text x="${r((pad.left + W - pad.right) / 2)}" y="${H - 8}" text-anchor="middle">N (transactions)</text>`);
  out.push(`<line x1="${r(x(n0))}" y1="${r(y(1))}" x2="${r(x(nMax))}" y2="${r(y(nMax / n0))}" stroke="#444" stroke-dasharray="6 4"/>`);
  out.push(`<line x1="${r(x(n0))}" y1="${r(y(1))}" x2="${r(x(nMax))}" y2="${r(y(1))}" stroke="#999" stroke-dasharray="2 4"/>`);
  const legend = (i: number) => pad.top + 8 + i * 16;
  const lx = W - pad.right + 16;
  out.push(`<line x1="${lx}" y1="${legend(0)}" x2="${lx + 22}" y2="${legend(0)}" stroke="#444" stroke-dasharray="6 4"/>`, `<text x="${lx + 28}" y="${legend(0) + 4}">linear (e = 1)</text>`);
  series.forEach((s, i) => {
    const colour = PALETTE[i % PALETTE.length]!;
    const pts = s.pts.map((p) => `${r(x(p.n))},${r(y(p.rel))}`).join(' ');
    out.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${pts}"><title>${escapeXml(s.key)}</title></polyline>`);
    for (const p of s.pts) out.push(`<circle cx="${r(x(p.n))}" cy="${r(y(p.rel))}" r="2.5" fill="${colour}"/>`);
    out.push(`<line x1="${lx}" y1="${legend(i + 1)}" x2="${lx + 22}" y2="${legend(i + 1)}" stroke="${colour}" stroke-width="2"/>`, `<text x="${lx + 28}" y="${legend(i + 1) + 4}">${escapeXml(s.key)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
