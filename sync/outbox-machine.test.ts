import { describe, expect, it } from 'vitest';
import {
  classifyOutcome,
  countEntries,
  createOutboxEntry,
  idempotencyKeyOf,
  InvalidTransitionError,
  deliveryOrder,
  nextEligible,
  nextWake,
  transition,
  type OutboxEvent,
} from './outbox-machine.ts';
import type { OutboxEntry, OutboxState } from './ports.ts';
import type { HttpResult } from './http.ts';
import { bulkCodeTransactions, patchTransaction } from '../schema/api/calls.ts';
import { defineCall } from '../schema/api/define-call.ts';
import { z } from 'zod';

const NOW = 1_000_000;
const T1 = '11111111-1111-4111-8111-111111111111';
const T2 = '22222222-2222-4222-8222-222222222222';
const err = { message: 'Bad', error_code: 'REQUEST_7001' };

function entry(over: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    ...createOutboxEntry({ id: 'cmd-1', command: 'transaction.code', args: { transaction_id: T1, patch: { memo: 'm' } }, now: NOW - 10 }),
    ...over,
  };
}

const EVENTS: Record<OutboxEvent['type'], OutboxEvent> = {
  send: { type: 'send' },
  succeeded: { type: 'succeeded' },
  unknown_outcome: { type: 'unknown_outcome', error: err, maybeSent: true, retryAfterMs: null },
  rejected: { type: 'rejected', error: err },
  conflict: { type: 'conflict', error: err },
  step_up: { type: 'step_up', scope: 'sensitive', error: err },
  unauthorized: { type: 'unauthorized' },
  aborted: { type: 'aborted', maybeSent: true },
  recover: { type: 'recover' },
  retry: { type: 'retry', newKey: 'new-key' },
};
const STATES: OutboxState[] = ['pending', 'sending', 'needs_step_up', 'conflict', 'failed', 'done'];

/** Every legal arrow, with what it must change. Anything not listed must throw. */
const TABLE: [OutboxState, OutboxEvent['type'], Partial<OutboxEntry>][] = [
  ['pending', 'send', { state: 'sending', attempts: 2 }],
  ['sending', 'succeeded', { state: 'done', last_error: null }],
  ['sending', 'unknown_outcome', { state: 'pending', maybe_sent: true, not_before: NOW + 300, last_error: err }],
  ['sending', 'rejected', { state: 'failed', last_error: err }],
  ['sending', 'conflict', { state: 'conflict', last_error: err }],
  ['sending', 'step_up', { state: 'needs_step_up', step_up_scope: 'sensitive' }],
  ['sending', 'unauthorized', { state: 'pending', not_before: NOW, maybe_sent: false }],
  ['sending', 'aborted', { state: 'pending', not_before: NOW, maybe_sent: true }],
  ['sending', 'recover', { state: 'pending', maybe_sent: true }],
  ['failed', 'retry', { state: 'pending', idempotency_key: 'new-key', last_error: null, maybe_sent: false, not_before: NOW }],
  ['conflict', 'retry', { state: 'pending', idempotency_key: 'new-key', last_error: null }],
  ['needs_step_up', 'retry', { state: 'pending', step_up_scope: null, last_error: null }],
];

describe('transition', () => {
  it.each(TABLE)('%s --%s-->', (from, ev, expected) => {
    const e = entry({ state: from, attempts: 1, step_up_scope: from === 'needs_step_up' ? 'sensitive' : null, last_error: from === 'pending' ? null : err });
    const next = transition(e, EVENTS[ev], NOW);
    expect(next).toMatchObject(expected);
    expect(next.id).toBe(e.id);
    expect(next.args).toEqual(e.args); // the user's input is always kept
  });

  const illegal = STATES.flatMap((s) =>
    (Object.keys(EVENTS) as OutboxEvent['type'][])
      .filter((ev) => !TABLE.some(([f, e]) => f === s && e === ev))
      .map((ev) => [s, ev] as const),
  );
  it.each(illegal)('%s --%s--> is refused', (from, ev) => {
    expect(() => transition(entry({ state: from }), EVENTS[ev], NOW)).toThrow(InvalidTransitionError);
  });

  it('backs off 0.3 s doubling per attempt, capped at a minute, or as Retry-After says', () => {
    const after = (attempts: number, retryAfterMs: number | null = null) =>
      transition(entry({ state: 'sending', attempts }), { ...EVENTS.unknown_outcome, retryAfterMs } as OutboxEvent, NOW).not_before - NOW;
    expect([1, 2, 3].map((a) => after(a))).toEqual([300, 600, 1200]);
    expect(after(40)).toBe(60_000);
    expect(after(1, 5_000)).toBe(5_000);
  });

  it('keeps maybe_sent once set, even when a later failure was surely not sent', () => {
    const e = entry({ state: 'sending', maybe_sent: true });
    expect(transition(e, { type: 'aborted', maybeSent: false }, NOW).maybe_sent).toBe(true);
  });

  it('sends under the entry id until a retry after a refusal gives a fresh key', () => {
    expect(idempotencyKeyOf(entry())).toBe('cmd-1');
    expect(idempotencyKeyOf(transition(entry({ state: 'failed' }), EVENTS.retry, NOW))).toBe('new-key');
    // Parked by the scope gate: nothing was refused, an earlier attempt may have landed: same key.
    expect(idempotencyKeyOf(transition(entry({ state: 'needs_step_up' }), EVENTS.retry, NOW))).toBe('cmd-1');
  });
});

describe('classifyOutcome', () => {
  const http = (status: number, code = 'X', retryAfter: string | null = null): HttpResult<unknown> =>
    ({ ok: false, kind: 'http', status, error: { message: 'm', error_code: code }, retryAfter });
  const sensitiveCall = defineCall({ id: 's', method: 'POST', path: '/s', auth: { scopes: ['default', 'sensitive'] }, response: z.object({}) });
  const rows: [string, HttpResult<unknown>, Partial<OutboxEvent>][] = [
    ['200', { ok: true, status: 200, data: {} }, { type: 'succeeded' }],
    ['2xx unreadable', { ok: false, kind: 'bad_response', status: 200, error: err }, { type: 'succeeded' }],
    ['401', http(401), { type: 'unauthorized' }],
    ['no token', { ok: false, kind: 'unauthenticated', error: err }, { type: 'unauthorized' }],
    ['400', http(400), { type: 'rejected' }],
    ['404', http(404), { type: 'rejected' }],
    ['413', http(413), { type: 'rejected' }],
    ['422', http(422), { type: 'rejected' }],
    ['403 forbidden', http(403, 'FORBIDDEN_7003'), { type: 'rejected' }],
    ['409', http(409, 'AUTH_7030'), { type: 'conflict' }],
    ['409 in progress', http(409, 'IDEMPOTENCY_7010'), { type: 'unknown_outcome', maybeSent: true }],
    ['408', http(408), { type: 'unknown_outcome' }],
    ['429 with Retry-After', http(429, 'AUTH_7029', '9'), { type: 'unknown_outcome', retryAfterMs: 9_000 }],
    ['429 quota, 12 minutes', http(429, 'QUOTA_EXCEEDED', '720'), { type: 'unknown_outcome', retryAfterMs: 720_000 }],
    ['500', http(500), { type: 'unknown_outcome', maybeSent: true }],
    ['503', http(503), { type: 'unknown_outcome' }],
    ['network', { ok: false, kind: 'network', maybeSent: true, error: err }, { type: 'unknown_outcome', maybeSent: true }],
    ['timeout', { ok: false, kind: 'timeout', maybeSent: true, error: err }, { type: 'unknown_outcome' }],
    ['aborted before sending', { ok: false, kind: 'aborted', maybeSent: false, error: err }, { type: 'aborted', maybeSent: false }],
    ['local step-up gate', { ok: false, kind: 'step_up', scope: 'email-otp', error: err }, { type: 'step_up', scope: 'email-otp' }],
    ['local forbidden gate', { ok: false, kind: 'forbidden', error: err }, { type: 'rejected' }],
  ];
  it.each(rows)('%s', (_n, result, expected) => {
    expect(classifyOutcome(result, patchTransaction, NOW)).toMatchObject(expected);
  });
  it('maps a server AUTH_7016 to the step-up scope the call accepts', () => {
    expect(classifyOutcome(http(403, 'AUTH_7016'), sensitiveCall, NOW)).toMatchObject({ type: 'step_up', scope: 'sensitive' });
    expect(classifyOutcome(http(403, 'AUTH_7016'), bulkCodeTransactions, NOW)).toMatchObject({ type: 'step_up', scope: null });
  });
});

describe('nextEligible (FIFO per entity)', () => {
  const e = (id: string, created: number, ids: string[], over: Partial<OutboxEntry> = {}) =>
    entry({ id, created_at: created, entity_ids: ids, not_before: 0, ...over });

  it('takes the oldest sendable entry', () => {
    expect(nextEligible([e('b', 2, [T2]), e('a', 1, [T1])], NOW)?.id).toBe('a');
  });
  it.each<OutboxState>(['pending', 'sending', 'failed', 'conflict', 'needs_step_up'])(
    'an older %s entry on the same entity blocks a younger one, others pass',
    (state) => {
      const entries = [e('old', 1, [T1], { state, not_before: state === 'pending' ? NOW + 1 : 0 }), e('young', 2, [T1, T2]), e('other', 3, [T2])];
      expect(nextEligible(entries, NOW)).toBeNull();
      expect(nextEligible(entries.slice(0, 1).concat(entries[2]!), NOW)?.id).toBe('other');
    },
  );
  it('skips an entry in backoff for another entity instead of waiting', () => {
    expect(nextEligible([e('wait', 1, [T1], { not_before: NOW + 500 }), e('go', 2, [T2])], NOW)?.id).toBe('go');
  });
  it('a younger entry on another entity shares nothing with a blocked chain', () => {
    expect(nextEligible([e('f', 1, [T1], { state: 'failed' }), e('x', 2, [T1]), e('y', 3, [T2])], NOW)?.id).toBe('y');
  });
  it('reports the earliest backoff end', () => {
    expect(nextWake([e('a', 1, [T1], { not_before: NOW + 700 }), e('b', 2, [T2], { not_before: NOW + 300 })], NOW)).toBe(NOW + 300);
    expect(nextWake([e('a', 1, [T1])], NOW)).toBeNull();
  });
});

describe("priority 'first' (issue 24: a fraud answer is sent before anything else queued)", () => {
  const T3 = '33333333-3333-4333-8333-333333333333';
  const at = (e: OutboxEntry, created: number): OutboxEntry => ({ ...e, created_at: created, not_before: 0 });
  const code = (id: string, txn: string, created: number) =>
    at(createOutboxEntry({ id, command: 'transaction.code', args: { transaction_id: txn, patch: { memo: id } }, now: NOW }), created);
  const answer = (id: string, txn: string, created: number) =>
    at(createOutboxEntry({ id, command: 'transaction.fraudResponse', args: { transaction_id: txn, response: 'NOT_RECOGNIZED' }, now: NOW }), created);

  it('goes before older queued commands on other rows', () => {
    const entries = [code('memo-1', T1, 1), code('memo-2', T2, 2), answer('fraud', T3, 3)];
    expect(nextEligible(entries, NOW)?.id).toBe('fraud');
    expect(deliveryOrder(entries).map((e) => e.id)).toEqual(['fraud', 'memo-1', 'memo-2']);
  });
  it('still waits for an older edit of its own transaction, which goes first with it', () => {
    const entries = [code('memo-1', T1, 1), code('memo-3', T3, 2), answer('fraud', T3, 3), code('memo-3b', T3, 4)];
    expect(deliveryOrder(entries).map((e) => e.id)).toEqual(['memo-3', 'fraud', 'memo-1', 'memo-3b']);
    expect(nextEligible(entries, NOW)?.id).toBe('memo-3');
    // Once that edit is done, the answer is next, before the older unrelated edit.
    expect(nextEligible(entries.filter((e) => e.id !== 'memo-3'), NOW)?.id).toBe('fraud');
  });
  it('several priority entries keep their age order; finished entries change nothing', () => {
    const entries = [code('memo-1', T1, 1), answer('fraud-a', T2, 2), answer('fraud-b', T3, 3), { ...code('done', T2, 0), state: 'done' as const }];
    expect(deliveryOrder(entries).map((e) => e.id)).toEqual(['fraud-a', 'fraud-b', 'done', 'memo-1']);
    expect(nextEligible(entries, NOW)?.id).toBe('fraud-a');
  });
  it('without a priority entry the order is plain age', () => {
    const entries = [code('b', T2, 2), code('a', T1, 1)];
    expect(deliveryOrder(entries).map((e) => e.id)).toEqual(['a', 'b']);
  });
});

describe('security-critical commands go first (issue 25: an offline card lock is sent before older edits)', () => {
  const C1 = '44444444-4444-4444-8444-444444444444';
  const C2 = '55555555-5555-4555-8555-555555555555';
  const at = (e: OutboxEntry, created: number): OutboxEntry => ({ ...e, created_at: created, not_before: 0 });
  const card = (id: string, command: 'card.lock' | 'card.unlock' | 'card.update', cardId: string, created: number) =>
    at(createOutboxEntry({
      id, command, now: NOW,
      args: command === 'card.update' ? { card_id: cardId, patch: { display_name: id } } : { card_id: cardId },
    }), created);
  const bulk = (id: string, ids: string[], lock: boolean, created: number) =>
    at(createOutboxEntry({ id, command: 'card.bulkLock', args: { card_ids: ids, lock }, now: NOW }), created);
  const memo = (id: string, txn: string, created: number) =>
    at(createOutboxEntry({ id, command: 'transaction.code', args: { transaction_id: txn, patch: { memo: id } }, now: NOW }), created);

  it('a lock queued last is sent first, ahead of older edits of other rows', () => {
    const entries = [memo('memo-1', T1, 1), bulk('bulk-code', [T2], false, 2), card('lock', 'card.lock', C1, 3)];
    expect(nextEligible(entries, NOW)?.id).toBe('lock');
    expect(deliveryOrder(entries).map((e) => e.id)).toEqual(['lock', 'memo-1', 'bulk-code']);
  });
  it('never overtakes an older command on the same card: that one goes first, then the lock', () => {
    const entries = [memo('memo-1', T1, 1), card('rename', 'card.update', C1, 2), card('lock', 'card.lock', C1, 3)];
    expect(deliveryOrder(entries).map((e) => e.id)).toEqual(['rename', 'lock', 'memo-1']);
    expect(nextEligible(entries, NOW)?.id).toBe('rename');
    expect(nextEligible(entries.filter((e) => e.id !== 'rename'), NOW)?.id).toBe('lock');
  });
  it('an older failed edit of the same card still holds the lock back (FIFO per entity), but not other rows', () => {
    const entries = [card('rename', 'card.update', C1, 1), memo('memo-1', T1, 2), card('lock', 'card.lock', C1, 3)];
    const failed = entries.map((e) => (e.id === 'rename' ? { ...e, state: 'failed' as const } : e));
    expect(nextEligible(failed, NOW)?.id).toBe('memo-1');
  });
  it('an unlock is not security-critical: it keeps its age, and a later lock of the card stays behind it', () => {
    const entries = [memo('memo-1', T1, 1), card('lock-a', 'card.lock', C1, 2), card('unlock', 'card.unlock', C1, 3), card('lock-b', 'card.lock', C1, 4)];
    expect(deliveryOrder(entries).map((e) => e.id)).toEqual(['lock-a', 'unlock', 'lock-b', 'memo-1']);
    const onlyUnlock = [memo('memo-1', T1, 1), card('unlock', 'card.unlock', C2, 2)];
    expect(deliveryOrder(onlyUnlock).map((e) => e.id)).toEqual(['memo-1', 'unlock']);
  });
  it('a bulk lock goes first, a bulk unlock does not; a bulk lock drags the older edits of each of its cards with it', () => {
    const entries = [memo('memo-1', T1, 1), card('rename-2', 'card.update', C2, 2), bulk('unlock-all', [C1], false, 3), bulk('lock-all', [C2], true, 4)];
    expect(deliveryOrder(entries).map((e) => e.id)).toEqual(['rename-2', 'lock-all', 'memo-1', 'unlock-all']);
  });
});

describe('createOutboxEntry and countEntries', () => {
  it('counts a bulk entry as the rows it changes (issue 25: 1,485 changes waiting, not 1)', () => {
    const ids = Array.from({ length: 1485 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const bulkCode = createOutboxEntry({ id: 'b', command: 'transaction.bulkCode', args: { transaction_ids: ids, patch: { memo: 'x' } }, now: NOW });
    const one = createOutboxEntry({ id: 'o', command: 'transaction.code', args: { transaction_id: T1, patch: { memo: 'm' } }, now: NOW });
    expect(countEntries([bulkCode, one])).toMatchObject({ pending: 2, pendingItems: 1486 });
    // Refused or finished entries are not waiting.
    expect(countEntries([{ ...bulkCode, state: 'failed' }, { ...one, state: 'done' }])).toMatchObject({ pending: 0, pendingItems: 0, failed: 1 });
  });

  it('validates args and derives the entities', () => {
    const bulk = createOutboxEntry({ id: 'b', command: 'transaction.bulkCode', args: { transaction_ids: [T1, T2], patch: { memo: 'x' } }, now: NOW });
    expect(bulk).toMatchObject({ entity_ids: [T1, T2], state: 'pending', attempts: 0, not_before: NOW, maybe_sent: false });
    expect(() => createOutboxEntry({ id: 'c', command: 'transaction.code', args: { transaction_id: 'nope', patch: {} }, now: NOW })).toThrow();
  });
  it('counts pending (incl. sending), failed (incl. conflict) and parked entries', () => {
    const states: OutboxState[] = ['pending', 'sending', 'failed', 'conflict', 'needs_step_up', 'done'];
    expect(countEntries(states.map((state, i) => entry({ id: String(i), state })))).toEqual({ pending: 2, pendingItems: 2, failed: 2, needsStepUp: 1 });
  });
});
