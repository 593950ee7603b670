import { createPuller, type PullerEvent } from './puller.ts';
import { createHttpClient } from './http.ts';
import { createFakeClock, createMemoryMirror, fakeToken, scriptedTransport, type ScriptStep } from './testing.ts';
import type { BackfillCursor, ChangesResponse } from '../schema/sync-feed.ts';

/** The puller's tests' pages, stream and harness (puller.test.ts, puller-live.test.ts). */

export function page(from: number, count: number, over: Partial<ChangesResponse> = {}): ChangesResponse {
  const changes = Array.from({ length: count }, (_, i) => ({
    collection: 'transactions' as const, seq: from + i + 1, id: `t${from + i + 1}`, deleted: false, doc: { id: `t${from + i + 1}` },
  }));
  return { changes, checkpoint: from + count, has_more: false, high_water: from + count, visibility_epoch: 'e1', ...over };
}

/** A page of the first mirror's walk (newest first): rows with the given seqs, then its cursor. */
export function walkPage(top: number, seqs: number[], over: Partial<ChangesResponse> & { stage?: BackfillCursor['stage'] } = {}): ChangesResponse {
  const { stage = 'queried', ...rest } = over;
  const changes = seqs.map((seq) => ({ collection: 'transactions' as const, seq, id: `t${seq}`, deleted: false, doc: { id: `t${seq}` } }));
  const before = seqs.at(-1) ?? top + 1;
  return { changes, checkpoint: top, has_more: false, high_water: top, visibility_epoch: 'e1', backfill: { top, stage, before }, ...rest };
}

/** An SSE response whose body the test writes to, like a server holding the connection. */
export function sseStream() {
  let ctrl!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (ctrl = c) });
  const enc = new TextEncoder();
  return {
    step: ((_req, signal) => {
      signal?.addEventListener('abort', () => ctrl.error(signal.reason), { once: true });
      return Promise.resolve(new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }));
    }) as ScriptStep,
    send: (text: string) => ctrl.enqueue(enc.encode(text)),
    drop: () => ctrl.error(new TypeError('network changed')),
  };
}

export function setup(steps: ScriptStep[], batchSize?: number, store = createMemoryMirror()) {
  const clock = createFakeClock();
  const transport = scriptedTransport(steps);
  const http = createHttpClient({
    baseUrl: 'http://api.test', transport, clock,
    session: { getToken: () => fakeToken(['default']), onUnauthorized: () => undefined },
  });
  const events: PullerEvent[] = [];
  const puller = createPuller({ http, clock, store, batchSize, onEvent: (e) => events.push(e), random: () => 1 });
  const queries = () => transport.requests.filter((r) => r.url.includes('/changes')).map((r) => new URL(r.url).search);
  return { clock, transport, store, puller, events, queries };
}
