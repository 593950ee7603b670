/** Small statistics for the benchmark: nearest-rank percentiles over raw samples. */

/** Nearest-rank percentile (p in 0..100) of `samples`; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** Rounds a duration for the report: 0.01 ms under 10 ms, 0.1 ms under 1 s, whole ms above. */
export function roundMs(ms: number): number {
  if (!Number.isFinite(ms)) return ms;
  if (ms < 10) return Math.round(ms * 100) / 100;
  if (ms < 1000) return Math.round(ms * 10) / 10;
  return Math.round(ms);
}

/** The median as the nearest-rank 50th percentile (NaN for no samples). */
export const median = (samples: readonly number[]): number => percentile(samples, 50);
