import { describe, expect, it } from 'vitest';
import { initialLive, reduceLive, reducePull, startPull, type PullEffect } from './puller-reducer.ts';
import type { ChangesResponse } from '../schema/sync-feed.ts';

const LIMIT = 1_000;
const kinds = (effects: PullEffect[]) => effects.map((e) => (e.type === 'emit' ? `emit:${e.event.type}` : e.type));

function page(from: number, count: number, over: Partial<ChangesResponse> = {}): ChangesResponse {
  const changes = Array.from({ length: count }, (_, i) => ({
    collection: 'transactions' as const, seq: from + i + 1, id: `t${from + i + 1}`, deleted: false, doc: { id: `t${from + i + 1}` },
  }));
  return { changes, checkpoint: from + count, has_more: false, high_water: from + count, visibility_epoch: 'e1', ...over };
}

describe('startPull / reducePull (one pull, page by page)', () => {
  it('a fresh mirror walks from the top; a mirrored one asks after its stored checkpoint', () => {
    const fresh = startPull({ seq: 0, epoch: null }, LIMIT);
    expect(fresh.effects).toEqual([{ type: 'emit', event: { type: 'pull_started', initial: true } }, { type: 'fetch', query: { backfill: true, limit: LIMIT } }]);
    const mirrored = startPull({ seq: 7, epoch: 'e1', mirrored: true }, LIMIT);
    expect(mirrored.effects.at(-1)).toEqual({ type: 'fetch', query: { after: 7, limit: LIMIT } });
    const resumed = startPull({ seq: 7, epoch: 'e1', first: { loaded: 7, total: 20 } }, LIMIT);
    expect(kinds(resumed.effects)).toEqual(['emit:pull_started', 'emit:progress', 'fetch']);
  });

  it('asks for the next page before storing this one, and ends after the last is stored', () => {
    const start = startPull({ seq: 7, epoch: 'e1', mirrored: true }, LIMIT).state;
    const first = reducePull(start, { type: 'page', page: page(7, 3, { has_more: true }), status: 200 });
    expect(kinds(first.effects)).toEqual(['fetch', 'store']);
    expect(first.effects[0]).toEqual({ type: 'fetch', query: { after: 10, limit: LIMIT } });
    expect(first.effects[1]).toMatchObject({ checkpoint: { seq: 10, epoch: 'e1', mirrored: true } });
    const last = reducePull(first.state, { type: 'page', page: page(10, 2), status: 200 });
    expect(kinds(last.effects)).toEqual(['store', 'settle', 'emit:pull_succeeded', 'end']);
    expect(last.effects.at(-1)).toEqual({ type: 'end', result: { ok: true, checkpoint: 12 } });
  });

  it('a fresh walk stores its first page before asking the next (issue 33); later pages are asked before storing', () => {
    const start = startPull({ seq: 0, epoch: null }, LIMIT).state;
    const cursor = (before: number) => ({ top: 10, stage: 'queried' as const, before });
    const first = reducePull(start, { type: 'page', page: page(7, 3, { has_more: true, total: 9, backfill: cursor(8) }), status: 200 });
    expect(kinds(first.effects)).toEqual(['emit:progress', 'store', 'settle', 'fetch']);
    expect(first.effects.at(-1)).toEqual({ type: 'fetch', query: { backfill: true, limit: LIMIT, ...cursor(8) } });
    const second = reducePull(first.state, { type: 'page', page: page(4, 3, { has_more: true, backfill: cursor(5) }), status: 200 });
    expect(kinds(second.effects)).toEqual(['fetch', 'store']);
  });

  it('a new visibility epoch resets the mirror and walks again from the top', () => {
    const start = startPull({ seq: 7, epoch: 'e1', mirrored: true }, LIMIT).state;
    const step = reducePull(start, { type: 'page', page: page(7, 3, { visibility_epoch: 'e2' }), status: 200 });
    expect(kinds(step.effects)).toEqual(['settle', 'reset', 'emit:pull_started', 'fetch']);
    expect(step.state).toMatchObject({ epoch: null, seq: 0, initial: true, ask: { kind: 'backfill', cursor: null } });
  });

  it('refuses a page that says has_more without advancing, and reports a failure after settling', () => {
    const start = startPull({ seq: 7, epoch: 'e1', mirrored: true }, LIMIT).state;
    const stuck = reducePull(start, { type: 'page', page: page(7, 0, { has_more: true }), status: 200 });
    expect(kinds(stuck.effects)).toEqual(['settle', 'emit:pull_failed', 'end']);
    expect(stuck.effects.at(-1)).toMatchObject({ result: { ok: false, failure: { kind: 'bad_response', error: { error_code: 'SYNC_FEED' } } } });
  });
});

describe('reduceLive (the live loop)', () => {
  const config = { reconnectMs: 1_000, maxReconnectMs: 30_000 };
  const at = { now: 0, jitter: 1, aborted: false };
  const unauthorized = { ok: false as const, kind: 'unauthenticated' as const, error: { message: 'Sign in.', error_code: 'AUTH_7002' } };

  it('opens, catches up, then follows; a refused session ends it', () => {
    expect(reduceLive(initialLive, { type: 'begin', aborted: false }, config).effects).toEqual([{ type: 'open' }]);
    expect(reduceLive(initialLive, { type: 'begin', aborted: true }, config).effects).toEqual([{ type: 'end', end: { reason: 'aborted' } }]);
    const opened = reduceLive(initialLive, { type: 'opened', result: { ok: true } }, config);
    expect(opened.effects).toEqual([{ type: 'pull' }]);
    const caught = reduceLive(opened.state, { type: 'caught_up', result: { ok: true, checkpoint: 3 }, ...at }, config);
    expect(caught.effects).toEqual([{ type: 'emit', event: { type: 'stream_open' } }, { type: 'follow' }]);
    expect(reduceLive(initialLive, { type: 'opened', result: unauthorized }, config).effects).toEqual([{ type: 'end', end: { reason: 'unauthorized', failure: unauthorized } }]);
  });

  it('backs off doubling per failure, from the server retry: when it sent one, and resets after a good connection', () => {
    let state = initialLive;
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const step = reduceLive(state, { type: 'followed', end: null, retryMs: null, ...at }, config);
      state = step.state;
      const sleep = step.effects.find((e) => e.type === 'sleep');
      waits.push(sleep?.type === 'sleep' ? sleep.ms : -1);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000]);
    const withRetry = reduceLive(initialLive, { type: 'followed', end: null, retryMs: 500, ...at }, config);
    expect(withRetry.effects).toEqual([
      { type: 'emit', event: { type: 'stream_lost' } }, { type: 'loop', event: { type: 'wait', until: 500 } }, { type: 'sleep', ms: 500 },
    ]);
    const opened = reduceLive({ ...state, streamOk: true }, { type: 'caught_up', result: { ok: true, checkpoint: 1 }, ...at }, config);
    expect(opened.state.failures).toBe(0);
    // The stream opened but the catch-up failed: the stream is closed before the backoff.
    const failed = reduceLive({ ...initialLive, streamOk: true }, { type: 'caught_up', result: { ok: false, failure: { ok: false, kind: 'network', maybeSent: false, error: { message: 'x', error_code: 'NETWORK' } } }, ...at }, config);
    expect(failed.effects.map((e) => e.type)).toEqual(['cancel_stream', 'emit', 'loop', 'sleep']);
    expect(reduceLive(state, { type: 'slept', aborted: false }, config).effects).toEqual([{ type: 'loop', event: { type: 'start' } }, { type: 'open' }]);
  });
});
