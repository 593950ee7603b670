import { describe, expect, it } from 'vitest';
import { costCurveSvg, curveSizes, curveTable, figureCurves, growthSteps, passes, ruleOf, verdict, type GrowthRule } from './cost-curve.ts';
import type { BenchResults, Metrics } from './metrics.ts';
import { METRIC_ORDER } from './report.ts';
import { runsOf, type CurveResults } from './results-file.ts';

/** A run at `transactions` whose every metric is 10, with `metrics` on top. */
function benchRun(transactions: number, metrics: Partial<Record<keyof Metrics, number | null>> = {}): BenchResults {
  const base = Object.fromEntries(METRIC_ORDER.map((k) => [k, 10])) as unknown as Metrics;
  return {
    transactions,
    reimbursements: transactions / 5,
    started_at: '2026-11-23T18:00:00.000Z',
    environment: { node: 'v20.20.2', chromium: 'Chromium 156', platform: 'linux-x64', cpus: 2 },
    metrics: { ...base, ...metrics } as Metrics,
    details: {},
  };
}

/** 10k → 100k → 1M: mirror linear, search p95 sub-linear, heap super-linear, PG missing. */
const CURVE: BenchResults[] = [
  benchRun(10_000, { mirror_ms: 4_000, local_search_p95_ms: 1, worker_heap_mb: 20, change_feed_rows_per_s: 10_000, server_page_pg_rps: null }),
  benchRun(100_000, { mirror_ms: 40_000, local_search_p95_ms: 2, worker_heap_mb: 400, change_feed_rows_per_s: 12_000, server_page_pg_rps: null }),
  benchRun(1_000_000, { mirror_ms: 400_000, local_search_p95_ms: 4, worker_heap_mb: 8_000, change_feed_rows_per_s: 11_000, server_page_pg_rps: null }),
];

describe('growthSteps', () => {
  it.each([
    { name: 'linear over ×10', points: [{ n: 10, value: 3 }, { n: 100, value: 30 }], ratio: 10, exponent: 1 },
    { name: 'flat', points: [{ n: 10, value: 3 }, { n: 100, value: 3 }], ratio: 1, exponent: 0 },
    { name: 'square root over ×100', points: [{ n: 1, value: 2 }, { n: 100, value: 20 }], ratio: 10, exponent: 0.5 },
    { name: 'quadratic over ×3', points: [{ n: 1000, value: 1 }, { n: 3000, value: 9 }], ratio: 9, exponent: 2 },
    { name: 'unsorted input', points: [{ n: 100, value: 30 }, { n: 10, value: 3 }], ratio: 10, exponent: 1 },
  ])('$name', ({ points, ratio, exponent }) => {
    const [step] = growthSteps(points);
    expect(step?.ratio).toBeCloseTo(ratio, 10);
    expect(step?.exponent).toBeCloseTo(exponent, 10);
  });

  it.each([null, 0, Number.NaN, -1])('cannot judge a step with a value of %s', (value) => {
    const [step] = growthSteps([{ n: 10, value: 5 }, { n: 100, value }]);
    expect(step?.exponent).toBeNaN();
  });
});

describe('rules', () => {
  it.each<[keyof Metrics, GrowthRule]>([
    ['mirror_ms', 'linear'],
    ['worker_heap_mb', 'linear'],
    ['local_search_p95_ms', 'sub-linear'],
    ['server_page_rps', 'rate-per-request'],
    ['change_feed_rows_per_s', 'rate-over-all'],
  ])('%s is held to %s growth', (key, rule) => expect(ruleOf(key)).toBe(rule));

  it.each<[GrowthRule, number, boolean]>([
    ['linear', 1, true], ['linear', 1.01, false], ['sub-linear', 0.99, true], ['sub-linear', 1, false],
    ['rate-per-request', -1, true], ['rate-per-request', -1.2, false], ['rate-over-all', 0, true], ['rate-over-all', -0.05, false],
  ])('%s with e = %s passes: %s', (rule, e, ok) => expect(passes(rule, e)).toBe(ok));

  it('judges a figure by its worst step, and not at all without values', () => {
    expect(verdict('mirror_ms', growthSteps([{ n: 1, value: 1 }, { n: 10, value: 5 }, { n: 100, value: 200 }]))).toBe(false);
    expect(verdict('mirror_ms', growthSteps([{ n: 1, value: null }, { n: 10, value: null }]))).toBeNull();
  });
});

describe('figureCurves', () => {
  it('covers every metric with a point per run', () => {
    const curves = figureCurves(CURVE);
    expect(curves.map((c) => c.key)).toEqual(METRIC_ORDER);
    const byKey = Object.fromEntries(curves.map((c) => [c.key, c]));
    expect(byKey.mirror_ms?.ok).toBe(true);
    expect(byKey.local_search_p95_ms?.ok).toBe(true);
    expect(byKey.worker_heap_mb?.ok).toBe(false);
    expect(byKey.change_feed_rows_per_s?.ok).toBe(false);
    expect(byKey.server_page_pg_rps?.ok).toBeNull();
    expect(byKey.worker_heap_mb?.steps.map((s) => Math.round(s.exponent * 100) / 100)).toEqual([1.3, 1.3]);
  });
});

describe('curveTable', () => {
  const table = curveTable(CURVE);

  it('has a row per N for every figure', () => {
    const rows = table.split('\n').filter((l) => /^\| .* \| [\d,]+ \|/.test(l));
    expect(rows).toHaveLength(METRIC_ORDER.length * CURVE.length);
  });

  it('shows the growth of each step and the verdict on the last row', () => {
    expect(table).toContain('| `mirror_ms` | 10,000 | 4000 |  |  | e ≤ 1 |  |');
    expect(table).toContain('|  | 100,000 | 40000 | ×10.00 | 1.00 |  |  |');
    expect(table).toContain('|  | 1,000,000 | 400000 | ×10.00 | 1.00 |  | yes |');
    expect(table).toContain('|  | 1,000,000 | 8000 | ×20.00 | 1.30 |  | no |');
    expect(table).toContain('| `server_page_pg_rps` | 10,000 | n/a |');
  });

  it('names the figures that miss their rule', () => {
    expect(table).toContain('Worse than their rule: `worker_heap_mb`, `change_feed_rows_per_s`.');
    expect(table).toContain('Not judged (missing values): `server_page_pg_rps`.');
  });
});

describe('costCurveSvg', () => {
  const svg = costCurveSvg(CURVE);

  it('draws a line per charted figure, the linear reference and a tick per N', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(10);
    expect(svg).toContain('<title>mirror_ms</title>');
    expect(svg).toContain('linear (e = 1)');
    for (const label of ['>10k<', '>100k<', '>1M<']) expect(svg).toContain(label);
  });

  it('writes only finite coordinates, a linear figure on the diagonal', () => {
    expect(svg).not.toMatch(/NaN|Infinity/);
    const diagonal = /<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)" stroke="#444"/.exec(svg);
    const mirror = /<polyline fill="none" stroke="[^"]+" stroke-width="2" points="([^"]+)"><title>mirror_ms</.exec(svg);
    expect(mirror?.[1]).toBe(`${diagonal?.[1]},${diagonal?.[2]} ${mirror?.[1]?.split(' ')[1]} ${diagonal?.[3]},${diagonal?.[4]}`);
  });

  it('leaves out a figure without values', () => {
    expect(costCurveSvg(CURVE, ['mirror_ms', 'server_page_pg_rps']).match(/<polyline /g)).toHaveLength(1);
  });
});

describe('curveSizes', () => {
  it.each([
    { opts: { scale: false }, sizes: [10_000, 100_000] },
    { opts: { scale: true }, sizes: [10_000, 100_000, 1_000_000] },
    { opts: { scale: false, sizes: '3000,1000,3000' }, sizes: [1000, 3000] },
  ])('$opts', ({ opts, sizes }) => expect(curveSizes(opts)).toEqual(sizes));

  it.each(['50,1000', '1000,2000000', '1000', '1000,1000'])('refuses %s', (sizes) => {
    expect(() => curveSizes({ scale: false, sizes })).toThrow();
  });
});

describe('runsOf', () => {
  it('reads one run and a curve alike, smallest N first', () => {
    const curve: CurveResults = { kind: 'curve', started_at: 'x', runs: [CURVE[2]!, CURVE[0]!] };
    expect(runsOf(CURVE[1]!).map((r) => r.transactions)).toEqual([100_000]);
    expect(runsOf(curve).map((r) => r.transactions)).toEqual([10_000, 1_000_000]);
  });
});
