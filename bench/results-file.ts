/**
 * bench/results.json in either shape: one run (`npm run bench -- --json …`, what every reader
 * before issue 13 knows) or the cost curve's runs (`--curve`: `{ runs: [...] }`, smallest N
 * first). Readers take `runsOf(file)` and never care which.
 */
import { readFile } from 'node:fs/promises';
import type { BenchResults } from './metrics.ts';

export interface CurveResults {
  kind: 'curve';
  started_at: string;
  runs: BenchResults[];
}

export type ResultsFile = BenchResults | CurveResults;

export function isCurve(file: ResultsFile): file is CurveResults {
  return Array.isArray((file as Partial<CurveResults>).runs);
}

/** The runs of either shape, ordered by N. */
export function runsOf(file: ResultsFile): BenchResults[] {
  const runs = isCurve(file) ? [...file.runs] : [file];
  return runs.sort((a, b) => a.transactions - b.transactions);
}

/** Reads a results file; null when there is none. */
export async function readResultsFile(path: string): Promise<ResultsFile | null> {
  const text = await readFile(path, 'utf8').catch(() => null);
  return text === null ? null : (JSON.parse(text) as ResultsFile);
}
