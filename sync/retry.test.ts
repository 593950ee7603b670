import { describe, expect, it } from 'vitest';
import { backoffDelay, callWithRetry, parseRetryAfter, retryDecision, type RetryInput } from './retry.ts';
import type { HttpFailure } from './http.ts';
import { createHttpClient } from './http.ts';
import { createFakeClock, fakeToken, jsonResponse, scriptedTransport } from './testing.ts';
import { getTransaction, patchTransaction, syncChanges } from '../schema/api/calls.ts';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const err = { message: 'x', error_code: 'X' };
const http = (status: number, retryAfter: string | null = null): HttpFailure => ({ ok: false, kind: 'http', status, error: err, retryAfter });
const inFlight = (retryAfter: string | null = null): HttpFailure =>
  ({ ok: false, kind: 'http', status: 409, error: { message: 'x', error_code: 'IDEMPOTENCY_7010' }, retryAfter });
const network: HttpFailure = { ok: false, kind: 'network', maybeSent: true, error: err };
const timeout: HttpFailure = { ok: false, kind: 'timeout', maybeSent: true, error: err };
const aborted: HttpFailure = { ok: false, kind: 'aborted', maybeSent: true, error: err };
const stepUp: HttpFailure = { ok: false, kind: 'step_up', scope: 'sensitive', error: err };

const base: RetryInput = { method: 'GET', retryClass: 'standard', retries: 0, failure: http(503), now: NOW };
type Row = [string, Partial<RetryInput>, number | false];

describe('retryDecision (§7)', () => {
  const rows: Row[] = [
    ...[408, 413, 429, 500, 502, 503, 504].map((s): Row => [`standard GET ${s}`, { failure: http(s) }, 300]),
    ...(['GET', 'PUT', 'DELETE'] as const).map((m): Row => [`standard ${m} 503`, { method: m }, 300]),
    ['standard GET 400', { failure: http(400) }, false],
    ['standard GET 404', { failure: http(404) }, false],
    ['standard GET 422', { failure: http(422) }, false],
    ['standard GET 501', { failure: http(501) }, false],
    ['standard POST 503: never blindly', { method: 'POST' }, false],
    ['standard PATCH 503: never blindly', { method: 'PATCH' }, false],
    ['standard PATCH network: never blindly', { method: 'PATCH', failure: network }, false],
    ['standard GET network error', { failure: network }, 300],
    ['standard GET timeout', { failure: timeout }, 300],
    ['standard GET aborted', { failure: aborted }, false],
    ['standard GET step-up (local)', { failure: stepUp }, false],
    ['standard second retry doubles', { retries: 1 }, 600],
    ['standard third retry: out of retries', { retries: 2 }, false],
    ['Retry-After seconds', { failure: http(429, '7') }, 7_000],
    ['Retry-After HTTP date', { failure: http(503, new Date(NOW + 4_000).toUTCString()) }, 4_000],
    ['Retry-After date in the past', { failure: http(503, new Date(NOW - 4_000).toUTCString()) }, 0],
    ['Retry-After unreadable → backoff', { failure: http(503, 'soon') }, 300],
    ['Retry-After beyond the cap → give up', { failure: http(503, '3600') }, false],
    ['paged 422', { retryClass: 'paged', failure: http(422) }, false],
    ['paged 429 (a 4xx)', { retryClass: 'paged', failure: http(429) }, false],
    ['paged 408 (a 4xx)', { retryClass: 'paged', failure: http(408) }, false],
    ['paged 500', { retryClass: 'paged', failure: http(500) }, 300],
    ['paged 501', { retryClass: 'paged', failure: http(501) }, 300],
    ['paged POST 503 (search)', { retryClass: 'paged', method: 'POST' }, 300],
    ['paged network', { retryClass: 'paged', failure: network }, 300],
    ['paged 5th retry', { retryClass: 'paged', retries: 4 }, 4_800],
    ['paged out of retries', { retryClass: 'paged', retries: 5 }, false],
    ['stream never', { retryClass: 'stream' }, false],
    ['key in flight, own key: POST retried', { method: 'POST', keyed: true, failure: inFlight() }, 300],
    ['key in flight, own key: Retry-After honoured', { method: 'PATCH', keyed: true, failure: inFlight('1') }, 1_000],
    ['key in flight, own key: out of retries', { method: 'POST', keyed: true, retries: 2, failure: inFlight() }, false],
    ['key in flight without a fixed key: a repeat would get a new key', { method: 'POST', failure: inFlight() }, false],
    ['another 409 is not transient', { method: 'POST', keyed: true, failure: http(409) }, false],
  ];
  it.each(rows)('%s', (_name, over, expected) => {
    const d = retryDecision({ ...base, ...over });
    expect(d).toEqual(expected === false ? { retry: false } : { retry: true, delayMs: expected });
  });
});

describe('parseRetryAfter and backoffDelay', () => {
  it.each([
    [null, null], ['0', 0], ['12', 12_000], [' 5 ', 5_000], ['-1', null], ['1.5', null], ['garbage', null],
  ])('parses %s', (v, ms) => expect(parseRetryAfter(v, NOW)).toBe(ms));
  it('doubles from 0.3 s and caps', () => {
    expect([0, 1, 2, 3].map((r) => backoffDelay(r))).toEqual([300, 600, 1200, 2400]);
    expect(backoffDelay(30)).toBe(300_000);
    expect(backoffDelay(30, 1_000)).toBe(1_000);
  });
});

describe('callWithRetry', () => {
  const TXN = '3f1c6b1e-8f0a-4e7b-9b3a-0c6f1d2e3a4b';
  const make = (steps: Response[] | (Response | Error)[]) => {
    const transport = scriptedTransport(steps);
    const clock = createFakeClock(NOW);
    const client = createHttpClient({
      baseUrl: 'http://api.test', transport, clock,
      session: { getToken: () => fakeToken(['default', 'low-risk']), onUnauthorized: () => undefined },
    });
    return { transport, clock, client };
  };
  const feed = { changes: [], checkpoint: 0, has_more: false, high_water: 0, visibility_epoch: 'e' };

  it('retries a GET twice, waiting 0.3 s then 0.6 s on the clock, and returns the success', async () => {
    const { transport, clock, client } = make([jsonResponse(503, {}), new TypeError('reset'), jsonResponse(200, feed)]);
    const pending = callWithRetry(client, clock, syncChanges, {});
    await clock.advance(0);
    expect(transport.requests).toHaveLength(1);
    await clock.advance(299);
    expect(transport.requests).toHaveLength(1);
    await clock.advance(1);
    expect(transport.requests).toHaveLength(2);
    await clock.advance(600);
    expect(await pending).toMatchObject({ ok: true, data: feed });
    expect(transport.requests).toHaveLength(3);
  });

  it('honours Retry-After then gives up after 2 retries on a standard GET', async () => {
    const { transport, clock, client } = make([
      jsonResponse(429, {}, { 'Retry-After': '2' }), jsonResponse(503, {}), jsonResponse(503, {}),
    ]);
    const pending = callWithRetry(client, clock, getTransaction, { params: { transaction_canonical_uuid: TXN } });
    await clock.advance(1_999);
    expect(transport.requests).toHaveLength(1);
    await clock.advance(1);
    await clock.advance(600);
    expect(await pending).toMatchObject({ ok: false, kind: 'http', status: 503 });
    expect(transport.requests).toHaveLength(3);
  });

  it('never repeats a PATCH', async () => {
    const { transport, clock, client } = make([jsonResponse(503, {})]);
    const res = await callWithRetry(client, clock, patchTransaction, { params: { transaction_canonical_uuid: TXN }, body: { memo: 'm' } });
    expect(res).toMatchObject({ ok: false, status: 503 });
    expect(transport.requests).toHaveLength(1);
  });

  it('stops waiting when aborted during a backoff', async () => {
    const { clock, client } = make([jsonResponse(503, {})]);
    const ctrl = new AbortController();
    const pending = callWithRetry(client, clock, syncChanges, { signal: ctrl.signal });
    await clock.advance(100);
    ctrl.abort();
    expect(await pending).toMatchObject({ ok: false, kind: 'aborted' });
  });
});
