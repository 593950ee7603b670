import { describe, expect, it } from 'vitest';
import { askFirstPage } from './first-page.ts';
import { createHttpClient } from './http.ts';
import { createPuller, startsWalk, type PullerEvent } from './puller.ts';
import { page, sseStream, walkPage } from './puller-test-kit.ts';
import type { Transport } from './ports.ts';
import {
  createFakeClock, createMemoryMirror, fakeToken, flush, hangingStep, jsonResponse, scriptedTransport, type ScriptStep,
} from './testing.ts';

type StepFn = Extract<ScriptStep, (...args: never[]) => unknown>;

/**
 * Issue 33: a fresh mirror's first feed page asked before the engine exists (at the sign-in's
 * token) and taken by the puller's first ask only when it is that very page.
 */
function harness(steps: ScriptStep[], store = createMemoryMirror()) {
  const clock = createFakeClock();
  const transport = scriptedTransport(steps);
  const http = createHttpClient({
    baseUrl: 'http://api.test', transport, clock,
    session: { getToken: () => fakeToken(['default']), onUnauthorized: () => undefined },
  });
  const queries = () => transport.requests.filter((r) => r.url.includes('/changes')).map((r) => new URL(r.url).search);
  const events: PullerEvent[] = [];
  const pullerWith = (early: ReturnType<typeof askFirstPage> | undefined) =>
    createPuller({ http, clock, store, onEvent: (e) => events.push(e), random: () => 1, ...(early ? { firstPage: early } : {}) });
  return { http, store, queries, pullerWith, events };
}

/** A step that answers `body` only when the test says so, and records whether it was aborted. */
function heldStep(body: unknown) {
  const seen = { aborted: false, answer: () => undefined as void };
  const step: ScriptStep = (_req, signal) =>
    new Promise<Response>((resolve, reject) => {
      seen.answer = () => resolve(jsonResponse(200, body));
      signal?.addEventListener('abort', () => {
        seen.aborted = true;
        reject(signal.reason);
      }, { once: true });
    });
  return { step, seen };
}

describe('the early first page (issue 33)', () => {
  it('is the only request for the walk\'s first page: the puller takes it and goes on with the walk', async () => {
    const first = heldStep(walkPage(10, [10, 9, 8], { has_more: true, total: 5 }));
    const t = harness([first.step, jsonResponse(200, walkPage(10, [7, 6])), jsonResponse(200, page(10, 0))]);
    const early = askFirstPage(t.http);
    await flush();
    // Asked before any puller exists, at the walk's first page as the puller would ask it.
    expect(t.queries()).toEqual(['?backfill=true&limit=1000']);
    const pulled = t.pullerWith(early).pull();
    await flush();
    expect(t.queries()).toHaveLength(1);
    first.seen.answer();
    expect(await pulled).toEqual({ ok: true, checkpoint: 10 });
    expect(t.queries()).toEqual([
      '?backfill=true&limit=1000', '?backfill=true&limit=2000&top=10&stage=queried&before=8', '?after=10&limit=2000',
    ]);
    expect(t.store.count('transactions')).toBe(5);
    expect(t.store.applied.map((a) => a.count)).toEqual([3, 2, 0]);
    expect(t.events.at(-1)).toEqual({ type: 'pull_succeeded', checkpoint: 10 });
    expect(early.pending).toBe(false);
  });

  it('is dropped (aborted) when the checkpoint resumes a walk, and the puller asks its own page', async () => {
    const first = heldStep(walkPage(10, [10, 9]));
    const store = createMemoryMirror();
    const cursor = { top: 10, stage: 'queried' as const, before: 9 };
    await store.applyChanges([], { seq: 0, epoch: 'e1', mirrored: false, backfill: cursor });
    const t = harness([first.step, jsonResponse(200, walkPage(10, [8])), jsonResponse(200, page(10, 0))], store);
    const early = askFirstPage(t.http);
    await flush();
    expect(await t.pullerWith(early).pull()).toEqual({ ok: true, checkpoint: 10 });
    expect(first.seen.aborted).toBe(true);
    expect(t.queries()).toEqual(['?backfill=true&limit=1000', '?backfill=true&limit=2000&top=10&stage=queried&before=9', '?after=10&limit=2000']);
    expect(t.store.count('transactions')).toBe(1);
  });

  it('is forgotten when it failed: the puller asks the page again and stores that answer', async () => {
    const t = harness([
      jsonResponse(503, { error_v2: { message: 'busy', error_code: 'UNAVAILABLE' } }),
      jsonResponse(200, walkPage(10, [10, 9])),
      jsonResponse(200, page(10, 0)),
    ]);
    const early = askFirstPage(t.http);
    await flush();
    expect(await t.pullerWith(early).pull()).toEqual({ ok: true, checkpoint: 10 });
    expect(t.queries()).toEqual(['?backfill=true&limit=1000', '?backfill=true&limit=1000', '?after=10&limit=2000']);
    expect(t.store.count('transactions')).toBe(2);
  });

  it('is offered to the first ask only: a later walk (after a reset) asks its own first page', async () => {
    const t = harness([jsonResponse(200, walkPage(4, [4, 3])), jsonResponse(200, page(4, 0))]);
    const early = askFirstPage(t.http);
    const puller = t.pullerWith(early);
    expect(await puller.pull()).toEqual({ ok: true, checkpoint: 4 });
    expect(early.take({ backfill: true, limit: 1000 })).toBeNull();
    expect(t.queries()).toEqual(['?backfill=true&limit=1000', '?after=4&limit=2000']);
  });

  it('follows the puller\'s abort once taken, and drop() aborts one nobody took', async () => {
    const held = heldStep(walkPage(4, [4]));
    const t = harness([held.step, hangingStep()]);
    const taken = askFirstPage(t.http);
    await flush();
    const ctrl = new AbortController();
    const pulled = t.pullerWith(taken).pull(ctrl.signal);
    await flush();
    ctrl.abort();
    expect(await pulled).toMatchObject({ ok: false, failure: { kind: 'aborted' } });
    expect(held.seen.aborted).toBe(true);

    const dropped = askFirstPage(t.http);
    expect(dropped.pending).toBe(true);
    dropped.drop();
    expect(dropped.pending).toBe(false);
    expect(dropped.take({ backfill: true, limit: 1000 })).toBeNull();
  });

  it('live() takes it at once, before the stream has opened, and pulls once more after the stream opened', async () => {
    const clock = createFakeClock();
    const stream = sseStream();
    let openStream = () => undefined as void;
    const feed: string[] = [];
    const transport: Transport = (input, init) => {
      const url = new URL(String(input));
      if (url.pathname.endsWith('/stream')) {
        return new Promise<Response>((resolve) => (openStream = () => void (stream.step as StepFn)({} as never, init?.signal ?? undefined).then(resolve)));
      }
      feed.push(url.search);
      return Promise.resolve(jsonResponse(200, url.searchParams.has('backfill') ? walkPage(4, [4, 3]) : page(4, 0)));
    };
    const http = createHttpClient({
      baseUrl: 'http://api.test', transport, clock, session: { getToken: () => fakeToken(['default']), onUnauthorized: () => undefined },
    });
    const store = createMemoryMirror();
    const events: PullerEvent[] = [];
    const early = askFirstPage(http);
    const puller = createPuller({ http, clock, store, firstPage: early, onEvent: (e) => events.push(e), random: () => 1 });
    const ctrl = new AbortController();
    const live = puller.live(ctrl.signal);
    await flush(10);
    // The stream has not opened: the walk's first page is stored all the same.
    expect(store.count('transactions')).toBe(2);
    expect(feed).toEqual(['?backfill=true&limit=1000', '?after=4&limit=2000']);
    expect(events).not.toContainEqual({ type: 'stream_open' });
    openStream();
    await flush(10);
    expect(events).toContainEqual({ type: 'stream_open' });
    expect(feed).toEqual(['?backfill=true&limit=1000', '?after=4&limit=2000', '?after=4&limit=2000']);
    ctrl.abort();
    expect(await live).toEqual({ reason: 'aborted' });
  });

  it('startsWalk: only a checkpoint with nothing stored and no walk to resume', () => {
    expect(startsWalk({ seq: 0, epoch: null })).toBe(true);
    expect(startsWalk({ seq: 0, epoch: 'e1', mirrored: false, first: { loaded: 0, total: 9 } })).toBe(true);
    expect(startsWalk({ seq: 0, epoch: 'e1', backfill: { top: 9, stage: 'reference', before: 4 } })).toBe(false);
    expect(startsWalk({ seq: 12, epoch: 'e1', mirrored: false })).toBe(false);
    expect(startsWalk({ seq: 0, epoch: 'e1', mirrored: true })).toBe(false);
  });
});
