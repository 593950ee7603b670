/**
 * Records the app's API requests during a benchmark phase (the data worker's fetches included),
 * so the report can say where a phase spends its time: in the network round trips to our server,
 * or in the browser (IndexedDB writes, indexing, rendering).
 */
import type { BrowserContext, Request } from 'playwright-core';

export interface RecordedRequest {
  method: string;
  path: string;
  /** Epoch ms the request started. */
  start: number;
  /** Request start → last response byte, ms. */
  duration: number;
}

export interface NetworkRecorder {
  requests: RecordedRequest[];
  stop(): void;
}

export function recordApiRequests(context: BrowserContext): NetworkRecorder {
  const requests: RecordedRequest[] = [];
  const onFinished = (req: Request) => {
    const url = new URL(req.url());
    if (!url.pathname.startsWith('/v1/')) return;
    const t = req.timing();
    requests.push({ method: req.method(), path: url.pathname, start: t.startTime, duration: t.responseEnd });
  };
  context.on('requestfinished', onFinished);
  return { requests, stop: () => context.off('requestfinished', onFinished) };
}

/** Count and summed duration of the recorded requests to one path. */
export function summarise(requests: readonly RecordedRequest[], path: string): { count: number; totalMs: number; first: RecordedRequest | null } {
  const hits = requests.filter((r) => r.path === path);
  return { count: hits.length, totalMs: hits.reduce((s, r) => s + Math.max(0, r.duration), 0), first: hits[0] ?? null };
}
