import { describe, expect, it } from 'vitest';
import { flush, jsonResponse } from './testing.ts';
import { page, setup, sseStream } from './puller-test-kit.ts';

describe('puller.live', () => {
  it('catches up, then pulls when the stream announces a newer seq, and ignores old ones', async () => {
    const s = sseStream();
    const t = setup([s.step, jsonResponse(200, page(0, 2)), jsonResponse(200, page(2, 1))]);
    const ctrl = new AbortController();
    const done = t.puller.live(ctrl.signal);
    await flush();
    expect(t.events.map((e) => e.type)).toEqual(['pull_started', 'pull_succeeded', 'stream_open']);
    s.send(': hello\n\nevent: seq\ndata: {"seq":2}\n\n');
    await flush();
    expect(t.queries()).toHaveLength(1);
    s.send('event: seq\r\ndata: {"seq":3}\r\n\r\n');
    await flush();
    expect(t.queries()).toEqual(['?backfill=true&limit=1000', '?after=2&limit=2000']);
    expect(t.puller.checkpoint()).toBe(3);
    ctrl.abort();
    expect(await done).toEqual({ reason: 'aborted' });
  });

  it('reconnects with backoff on the injected clock when the stream drops, honouring retry:', async () => {
    const s1 = sseStream();
    const s2 = sseStream();
    const t = setup([s1.step, jsonResponse(200, page(0, 1)), s2.step, jsonResponse(200, page(1, 1))]);
    const ctrl = new AbortController();
    expect(t.puller.loopState()).toEqual({ kind: 'idle' });
    const done = t.puller.live(ctrl.signal);
    await flush();
    expect(t.puller.loopState()).toEqual({ kind: 'running' });
    s1.send('retry: 5000\n');
    await flush();
    s1.drop();
    await flush();
    expect(t.events.at(-1)).toEqual({ type: 'stream_lost' });
    expect(t.clock.pending()).toEqual([5000]);
    expect(t.puller.loopState()).toEqual({ kind: 'waiting-retry', until: t.clock.now() + 5000 });
    await t.clock.advance(4_999);
    expect(t.transport.requests).toHaveLength(2);
    await t.clock.advance(1);
    expect(t.transport.requests).toHaveLength(4); // re-opened the stream and caught up
    expect(t.puller.checkpoint()).toBe(2);
    expect(t.puller.loopState()).toEqual({ kind: 'running' });
    ctrl.abort();
    expect(await done).toEqual({ reason: 'aborted' });
    expect(t.puller.loopState()).toEqual({ kind: 'stopped' });
  });

  it('keeps trying with doubling delays while the stream cannot open, pulling on each try', async () => {
    const s = sseStream();
    const t = setup([
      new TypeError('refused'), jsonResponse(200, page(0, 1)),
      new TypeError('refused'), jsonResponse(200, page(1, 0)),
      s.step, jsonResponse(200, page(1, 0)),
    ]);
    const ctrl = new AbortController();
    void t.puller.live(ctrl.signal);
    await flush();
    expect(t.clock.pending()).toEqual([1000]);
    await t.clock.advance(1000);
    expect(t.clock.pending()).toEqual([2000]);
    await t.clock.advance(2000);
    expect(t.transport.requests).toHaveLength(6);
    expect(t.events.filter((e) => e.type === 'stream_open')).toHaveLength(1);
    ctrl.abort();
  });

  it('retries a failing changes GET by the §7 rule before waiting to reconnect', async () => {
    const t = setup(Array.from({ length: 7 }, () => jsonResponse(503, {})));
    const ctrl = new AbortController();
    void t.puller.live(ctrl.signal);
    await flush();
    expect(t.clock.pending()).toEqual([300]); // paged class: the feed GET retries up to 5 times
    for (const ms of [300, 600, 1200, 2400, 4800]) await t.clock.advance(ms);
    expect(t.transport.requests).toHaveLength(7);
    expect(t.events.map((e) => e.type)).toEqual(['pull_started', 'pull_failed', 'stream_lost']);
    expect(t.clock.pending()).toEqual([1000]);
    ctrl.abort();
  });

  it('drops a silent stream after the idle timeout and reconnects; heartbeats keep it', async () => {
    const s1 = sseStream();
    const s2 = sseStream();
    const t = setup([s1.step, jsonResponse(200, page(0, 1)), s2.step, jsonResponse(200, page(1, 0))]);
    const ctrl = new AbortController();
    void t.puller.live(ctrl.signal);
    await flush();
    await t.clock.advance(40_000);
    s1.send(': heartbeat\n\n');
    await t.clock.advance(40_000);
    expect(t.events.filter((e) => e.type === 'stream_lost')).toHaveLength(0);
    await t.clock.advance(5_000);
    expect(t.events.filter((e) => e.type === 'stream_lost')).toHaveLength(1);
    await t.clock.advance(1_000);
    expect(t.transport.requests).toHaveLength(4);
    ctrl.abort();
  });

  it('treats a store failure as a failed pull and tries again after a backoff', async () => {
    const s1 = sseStream();
    const s2 = sseStream();
    const t = setup([s1.step, jsonResponse(200, page(0, 1)), s2.step, jsonResponse(200, page(0, 1))]);
    const apply = t.store.applyChanges;
    let broken = true;
    t.store.applyChanges = (c, cp) => (broken ? Promise.reject(new Error('QuotaExceededError')) : apply(c, cp));
    const ctrl = new AbortController();
    void t.puller.live(ctrl.signal);
    await flush();
    expect(t.events).toContainEqual({ type: 'pull_failed', failure: { ok: false, kind: 'store', error: { message: 'QuotaExceededError', error_code: 'LOCAL_STORE' } } });
    broken = false;
    await t.clock.advance(1_000);
    expect(t.store.count('transactions')).toBe(1);
    expect(t.events.at(-1)).toEqual({ type: 'stream_open' });
    ctrl.abort();
  });

  it('stops for good on a 401 from the stream', async () => {
    const t = setup([jsonResponse(401, { error_v2: { message: 'expired', error_code: 'AUTH_7003' } })]);
    const end = await t.puller.live(new AbortController().signal);
    expect(end).toMatchObject({ reason: 'unauthorized', failure: { status: 401 } });
    expect(t.puller.loopState()).toEqual({ kind: 'paused', reason: 'unauthorized' });
  });
});
