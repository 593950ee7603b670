import { describe, expect, it } from 'vitest';
import {
  beginDelivery, deliveryOptions, initialOutboxLoop, planDiscard, planRetry, reduceOutbox, settleDelivery,
  type OutboxLoopEvent, type OutboxLoopState,
} from './outbox-loop.ts';
import { commandDef, outboxEntryOf, type AnyCommand } from './outbox-machine.ts';
import type { OutboxEntry } from './ports.ts';

const T1 = '11111111-1111-4111-8111-111111111111';
const T2 = '22222222-2222-4222-8222-222222222222';
const UPLOAD: AnyCommand = { ...commandDef('transaction.code'), name: 'side.code', lane: 'upload' } as AnyCommand;
const lookup = (name: string): AnyCommand => (name === 'side.code' ? UPLOAD : commandDef(name));
const NOW = 1_000_000;

function entry(id: string, txn: string, over: Partial<OutboxEntry> = {}, def: AnyCommand = commandDef('transaction.code')): OutboxEntry {
  return { ...outboxEntryOf({ def, args: { transaction_id: txn, patch: { memo: id } } }, id, NOW), created_at: NOW + Number(id.slice(1)), ...over };
}

/** Folds events through the reducer, returning the last state and every effect's type. */
function fold(events: OutboxLoopEvent[], from: OutboxLoopState = initialOutboxLoop) {
  let state = from;
  const effects: string[] = [];
  for (const e of events) {
    const step = reduceOutbox(state, e, lookup);
    state = step.state;
    effects.push(...step.effects.map((x) => (x.type === 'deliver' ? `deliver:${x.lane}:${x.entry.id}` : x.type)));
  }
  return { state, effects };
}

describe('reduceOutbox (the delivery loop)', () => {
  it('a kick lists the store once; a second kick while listing lists again after it answers', () => {
    const { state, effects } = fold([{ type: 'kick' }, { type: 'kick' }]);
    expect(effects).toEqual(['list']);
    expect(state).toMatchObject({ loop: { kind: 'running' }, listing: true, stale: true });
    const after = fold([{ type: 'listed', entries: [], now: NOW }], state);
    expect(after.effects).toEqual(['list']);
  });

  it('starts one delivery per lane, side by side, and holds an entity behind its older entry', () => {
    const entries = [entry('c1', T1), entry('c2', T1), entry('c3', T2, {}, UPLOAD)];
    const { state, effects } = fold([{ type: 'kick' }, { type: 'listed', entries, now: NOW }]);
    expect(effects).toEqual(['list', 'deliver:main:c1', 'deliver:upload:c3']);
    expect(state.flights).toEqual({ main: 'c1', upload: 'c3' });
    // A listing that still shows c1 pending while it is in flight does not send it again.
    const again = fold([{ type: 'flight_ended', lane: 'upload' }, { type: 'listed', entries: entries.slice(0, 2), now: NOW }], state);
    expect(again.effects).toEqual(['list']);
    expect(again.state.flights).toEqual({ main: 'c1' });
  });

  it('recovers an entry left sending by an earlier session and sends it with its key', () => {
    const stale = entry('c1', T1, { state: 'sending', attempts: 1 });
    const step = reduceOutbox({ ...initialOutboxLoop, listing: true }, { type: 'listed', entries: [stale], now: NOW + 5 }, lookup);
    expect(step.effects.map((e) => e.type)).toEqual(['recover', 'deliver']);
    expect(step.effects[0]).toMatchObject({ entry: { id: 'c1', state: 'pending', maybe_sent: true, not_before: NOW + 5 } });
  });

  it('sleeps until the earliest backoff when nothing is sendable, and is idle when nothing waits', () => {
    const waiting = fold([{ type: 'kick' }, { type: 'listed', entries: [entry('c1', T1, { not_before: NOW + 300 })], now: NOW }]);
    expect(waiting.effects).toEqual(['list', 'set_timer', 'idle']);
    expect(waiting.state.loop).toEqual({ kind: 'waiting-retry', until: NOW + 300 });
    expect(fold([{ type: 'timer_fired' }], waiting.state).effects).toEqual(['list']);
    const empty = fold([{ type: 'kick' }, { type: 'listed', entries: [], now: NOW }]);
    expect(empty.effects).toEqual(['list', 'idle']);
    expect(empty.state.loop).toEqual({ kind: 'idle' });
  });

  it('pausing aborts the flights; the loop is idle once they end; kicks wait for resume', () => {
    const busy = fold([{ type: 'kick' }, { type: 'listed', entries: [entry('c1', T1)], now: NOW }]).state;
    const paused = fold([{ type: 'pause', reason: 'offline' }, { type: 'kick' }], busy);
    expect(paused.effects).toEqual(['abort_flights', 'clear_timer']);
    expect(paused.state.loop).toEqual({ kind: 'paused', reason: 'offline' });
    expect(fold([{ type: 'flight_ended', lane: 'main' }], paused.state).effects).toEqual(['idle']);
    expect(fold([{ type: 'flight_ended', lane: 'main' }, { type: 'resume' }], paused.state).effects).toEqual(['idle', 'list']);
  });

  it('a failed listing ends the run until the next kick', () => {
    const { state, effects } = fold([{ type: 'kick' }, { type: 'list_failed' }]);
    expect(effects).toEqual(['list', 'idle']);
    expect(state.loop).toEqual({ kind: 'idle' });
  });
});

describe('a delivery as effects', () => {
  const def = commandDef('transaction.code');
  const ok = { ok: true as const, status: 200, data: { id: 'srv' } };
  const error = { message: 'No.', error_code: 'REQUEST_7001' };

  it('stores the entry as sending first, with the same key on every attempt and If-Match from its base', () => {
    const begun = beginDelivery(entry('c1', T1, { idempotency_key: 'k2', base_seq: 7 }), 'f1', NOW);
    expect(begun.effects).toEqual([{ type: 'persist', entry: begun.state }, { type: 'upload_state', fileId: 'f1', state: { kind: 'uploading' } }]);
    expect(begun.state).toMatchObject({ state: 'sending', attempts: 1 });
    expect(deliveryOptions(begun.state, def)).toEqual({ idempotencyKey: 'k2', ifMatch: 7 });
    expect(deliveryOptions(entry('c1', T1), def)).toEqual({ idempotencyKey: 'c1' });
  });

  it('a success confirms and forgets; a refusal rolls back before it is recorded; a 401 pauses after', () => {
    const sending = beginDelivery(entry('c1', T1), 'f1', NOW).state;
    expect(settleDelivery(sending, { event: { type: 'succeeded' }, result: ok }, def, 'f1', NOW).effects.map((e) => e.type))
      .toEqual(['upload_state', 'confirm', 'remove']);
    const refused = settleDelivery(sending, { event: { type: 'rejected', error }, result: null }, def, undefined, NOW).effects;
    expect(refused.map((e) => e.type)).toEqual(['rollback', 'persist']);
    expect(refused[1]).toMatchObject({ entry: { state: 'failed', last_error: error } });
    const lost = settleDelivery(sending, { event: { type: 'unknown_outcome', error, maybeSent: true, retryAfterMs: null }, result: null }, def, undefined, NOW);
    expect(lost.effects).toEqual([{ type: 'persist', entry: lost.state }]);
    expect(lost.state).toMatchObject({ state: 'pending', maybe_sent: true, not_before: NOW + 300 });
    expect(deliveryOptions(lost.state, def).idempotencyKey).toBe('c1');
    expect(settleDelivery(sending, { event: { type: 'unauthorized' }, result: null }, def, undefined, NOW).effects.map((e) => e.type))
      .toEqual(['persist', 'unauthorized']);
  });

  it('kept when delivered in the background (keepDone): stored done with what the next open confirms, unless nothing is confirmed', () => {
    const sending = beginDelivery(entry('c1', T1), undefined, NOW).state;
    const row = { id: T1, change_seq: 12 };
    const kept = settleDelivery(sending, { event: { type: 'succeeded' }, result: { ok: true, status: 200, data: row } as never }, def, undefined, NOW, true);
    expect(kept.effects).toEqual([
      { type: 'confirm', entry: kept.state, response: row },
      { type: 'persist', entry: { ...kept.state, state: 'done', answer: row } },
    ]);
    const bulk = { ...def, confirm: 'change_seq' } as AnyCommand;
    const seqOnly = settleDelivery(sending, { event: { type: 'succeeded' }, result: { ok: true, status: 200, data: { updated: 2, change_seq: 30 } } as never }, bulk, undefined, NOW, true);
    expect(seqOnly.effects[1]).toEqual({ type: 'persist', entry: { ...seqOnly.state, answer: { change_seq: 30 } } });
    const unreadable = settleDelivery(sending, { event: { type: 'succeeded' }, result: null }, bulk, undefined, NOW, true);
    expect(unreadable.effects[1]).toEqual({ type: 'persist', entry: { ...unreadable.state, answer: null } });
    const upload = { ...def, confirm: 'none' } as AnyCommand;
    expect(settleDelivery(sending, { event: { type: 'succeeded' }, result: null }, upload, undefined, NOW, true).effects).toEqual([{ type: 'remove', id: 'c1' }]);
  });

  it('a user retry re-applies a refused entry under a fresh key; discard rolls back exactly once', () => {
    const failed = entry('c1', T1, { state: 'failed', last_error: error });
    expect(planRetry(failed, 'fresh', undefined, NOW)?.map((e) => e.type)).toEqual(['reapply', 'persist']);
    expect(planRetry(failed, 'fresh', undefined, NOW)?.[1]).toMatchObject({ entry: { state: 'pending', idempotency_key: 'fresh' } });
    expect(planRetry(entry('c1', T1, { state: 'needs_step_up' }), 'fresh', undefined, NOW)?.map((e) => e.type)).toEqual(['persist']);
    expect(planRetry(entry('c1', T1), 'fresh', undefined, NOW)).toBeNull();
    expect(planDiscard(entry('c1', T1))?.map((e) => e.type)).toEqual(['rollback', 'remove']);
    expect(planDiscard(failed)?.map((e) => e.type)).toEqual(['remove']);
    expect(planDiscard(entry('c1', T1, { state: 'sending' }))).toBeNull();
  });
});
