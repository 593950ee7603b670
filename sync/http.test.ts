import { describe, expect, it } from 'vitest';
import { createHttpClient, defaultTimeout, type HttpClientOptions } from './http.ts';
import { createFakeClock, fakeToken, hangingStep, jsonResponse, scriptedTransport, type ScriptStep } from './testing.ts';
import { listTransactions, patchTransaction, searchTransactions, signIn, syncChanges } from '../schema/api/calls.ts';
import { defineCall } from '../schema/api/define-call.ts';
import { z } from 'zod';
import { getReceiptFile, uploadReceipt } from '../schema/api/calls-receipts.ts';

const TXN = '3f1c6b1e-8f0a-4e7b-9b3a-0c6f1d2e3a4b';
const FULL = fakeToken(['default']);

function setup(steps: ScriptStep[], over: Partial<HttpClientOptions> & { token?: string | null } = {}) {
  const transport = scriptedTransport(steps);
  const clock = createFakeClock();
  const token = over.token === undefined ? FULL : over.token;
  const http = createHttpClient({
    baseUrl: 'http://api.test/',
    transport,
    clock,
    session: { getToken: () => token, onUnauthorized: () => undefined },
    newKey: () => 'generated-key',
    ...over,
  });
  return { http, transport, clock };
}

const txnBody = {
  id: TXN, card_id: TXN, user_id: TXN, merchant_name: 'Acme', merchant_category: 'Software', amount: 1234,
  currency: 'USD', occurred_at: '2026-01-01T00:00:00Z', state: 'CLEARED', memo: 'x', gl_account_id: null,
  department_id: null, location_id: null, tracking: {}, business_id: TXN, change_seq: 4,
  updated_at: '2026-01-01T00:00:00Z', deleted: false,
};

describe('createHttpClient', () => {
  it('blob: reads a file answer whole with its type and the token; errors are the server\'s error_v2', async () => {
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]);
    const { http, transport } = setup([
      new Response(bytes, { status: 200, headers: { 'Content-Type': 'image/jpeg' } }),
      jsonResponse(404, { error_v2: { error_code: 'REQUEST_7004', message: 'The requested item was not found.' } }),
      new Error('offline'),
    ]);
    const ok = await http.blob(getReceiptFile, { params: { receipt_uuid: TXN } });
    expect(ok.ok).toBe(true);
    if (!ok.ok) return;
    expect(ok.data.type).toBe('image/jpeg');
    expect(new Uint8Array(await ok.data.arrayBuffer())).toEqual(bytes);
    expect(transport.requests[0]).toMatchObject({ method: 'GET', url: `http://api.test/v1/auth/receipts/${TXN}` });
    expect(transport.requests[0]!.headers['ramp-id-token']).toBe(FULL);
    expect(await http.blob(getReceiptFile, { params: { receipt_uuid: TXN } })).toMatchObject({
      ok: false, kind: 'http', status: 404, error: { error_code: 'REQUEST_7004' },
    });
    expect(await http.blob(getReceiptFile, { params: { receipt_uuid: TXN } })).toMatchObject({ ok: false, kind: 'network' });
    // No session: nothing is sent.
    const signedOut = setup([], { token: null });
    expect(await signedOut.http.blob(getReceiptFile, { params: { receipt_uuid: TXN } })).toMatchObject({ ok: false, kind: 'unauthenticated' });
  });

  it('sends an upload call\'s file raw, with its own Content-Type and the Idempotency-Key', async () => {
    let seen: RequestInit | undefined;
    const receipt = { id: TXN, content_type: 'image/png', size: 3, sha256: 'a'.repeat(64), created_at: '2026-01-01T00:00:00.000Z' };
    const { http } = setup([], {
      transport: async (_url, init) => ((seen = init), jsonResponse(201, receipt)),
    });
    const file = new Blob([Uint8Array.from([1, 2, 3])], { type: 'image/png' });
    const res = await http.call(uploadReceipt, { file: { body: file, contentType: 'image/png' }, idempotencyKey: 'up-1' });
    expect(res).toMatchObject({ ok: true, status: 201, data: receipt });
    expect(seen?.body).toBe(file);
    const headers = new Headers(seen?.headers);
    expect(headers.get('content-type')).toBe('image/png');
    expect(headers.get('idempotency-key')).toBe('up-1');
  });

  it('builds the path, JSON body and headers of a PATCH, and parses the response', async () => {
    const { http, transport } = setup([jsonResponse(200, txnBody)]);
    const res = await http.call(patchTransaction, {
      params: { transaction_canonical_uuid: TXN },
      body: { memo: 'hello' },
      idempotencyKey: 'key-1',
    });
    expect(res).toMatchObject({ ok: true, status: 200, data: { id: TXN, memo: 'x' } });
    const req = transport.requests[0]!;
    expect(req.url).toBe(`http://api.test/v1/auth/transactions/${TXN}`);
    expect(req.method).toBe('PATCH');
    expect(req.body).toEqual({ memo: 'hello' });
    expect(req.headers['ramp-id-token']).toBe(FULL);
    expect(req.headers['x-ramp-platform']).toBe('web');
    expect(req.headers['idempotency-key']).toBe('key-1');
    expect(req.headers['content-type']).toBe('application/json');
  });

  it('sends GET parameters as a query string: empty values stripped, arrays comma-joined', async () => {
    const { http, transport } = setup([jsonResponse(200, { data: [], page: { next: null } })]);
    await http.call(listTransactions, {
      query: { page_size: 10, start: undefined, user_ids: [TXN, TXN], merchant: '', from: new Date(Date.UTC(2026, 0, 2)), to: null } as never,
    });
    const url = new URL(transport.requests[0]!.url);
    expect(url.pathname).toBe('/v1/auth/transactions');
    expect(url.searchParams.get('page_size')).toBe('10');
    expect(url.searchParams.has('start')).toBe(false);
    expect(url.searchParams.get('user_ids')).toBe(`${TXN},${TXN}`);
    expect(url.searchParams.get('from')).toBe('2026-01-02T00:00:00.000Z');
    expect(url.searchParams.has('to')).toBe(false);
    expect(url.searchParams.get('merchant')).toBe(''); // §5: empty strings are kept by default
    expect(transport.requests[0]!.headers['idempotency-key']).toBeUndefined();
    expect(transport.requests[0]!.body).toBeUndefined();
  });

  it('generates an Idempotency-Key for a POST sent without one; a read-only POST (the search) sends none', async () => {
    const write = defineCall({ id: 'test.write', method: 'POST', path: '/v1/auth/test-write', auth: { scopes: ['default'] }, body: z.object({}), response: z.object({}) });
    const { http, transport } = setup([jsonResponse(200, {}), jsonResponse(200, { data: [], page: { next: null } })], { token: fakeToken(['default', 'low-risk']) });
    await http.call(write, { body: {} });
    expect(transport.requests[0]!.headers['idempotency-key']).toBe('generated-key');
    await http.call(searchTransactions, { body: {} });
    expect(transport.requests[1]!.headers['idempotency-key']).toBeUndefined();
  });

  it('sends public calls without a token', async () => {
    const { http, transport } = setup([jsonResponse(200, { id_token: 't', mfa_required: false })], { token: null });
    const res = await http.call(signIn, { body: { email: 'a@b.test', password: 'p' } });
    expect(res.ok).toBe(true);
    expect(transport.requests[0]!.headers['ramp-id-token']).toBeUndefined();
  });

  it.each([
    ['no token', null, 'unauthenticated', 'AUTH_7002'],
    ['a scope that a step-up grants is missing', fakeToken(['default']), 'step_up', 'AUTH_7016'],
    ['a scope no step-up grants is missing', fakeToken(['chrome-extension']), 'forbidden', 'AUTH_7016'],
  ])('refuses locally, without a request, when %s', async (_name, token, kind, code) => {
    const sensitive = defineCall({ id: 'x', method: 'POST', path: '/v1/auth/x', auth: { scopes: ['sensitive'] }, response: z.object({}) });
    const def = kind === 'step_up' ? sensitive : syncChanges;
    const { http, transport } = setup([], { token });
    const res = await http.call(def, {});
    expect(res).toMatchObject({ ok: false, kind, error: { error_code: code } });
    if (kind === 'step_up') expect(res).toMatchObject({ scope: 'sensitive' });
    expect(transport.requests).toHaveLength(0);
  });

  it('sends a call that admits a recent token with a fresh scope-less token, and gates a stale one', async () => {
    const call = defineCall({ id: 'y', method: 'POST', path: '/v1/auth/y', auth: { scopes: ['default'], orRecentToken: true }, response: z.object({}) });
    const now = Date.UTC(2026, 0, 1) / 1000;
    const fresh = setup([jsonResponse(200, {})], { token: fakeToken([], { iat: now - 60 }) });
    expect(await fresh.http.call(call, {})).toMatchObject({ ok: true });
    const stale = setup([], { token: fakeToken([], { iat: now - 600 }) });
    expect(await stale.http.call(call, {})).toMatchObject({ ok: false, kind: 'forbidden' });
    expect(stale.transport.requests).toHaveLength(0);
  });

  it('turns an error_v2 body into a typed failure with Retry-After', async () => {
    const body = { error_v2: { message: 'Nope', error_code: 'REQUEST_7001' } };
    const { http } = setup([jsonResponse(422, body, { 'Retry-After': '3' })]);
    const res = await http.call(syncChanges, { query: { after: 0, limit: 1000 } });
    expect(res).toEqual({ ok: false, kind: 'http', status: 422, error: body.error_v2, retryAfter: '3' });
  });

  it('gives the default message for an unknown error body', async () => {
    const { http } = setup([new Response('<html>bad gateway</html>', { status: 502 })]);
    const res = await http.call(syncChanges, {});
    expect(res).toMatchObject({ kind: 'http', status: 502, error: { message: 'There was an error.' } });
  });

  it('reports a 2xx that breaks the catalogue schema as bad_response', async () => {
    const { http } = setup([jsonResponse(200, { unexpected: true })]);
    expect(await http.call(syncChanges, {})).toMatchObject({ ok: false, kind: 'bad_response', status: 200 });
  });

  it('reads a 204 with no body as null, the answer of a call declared z.null(); an empty 200 is still bad_response', async () => {
    const nothing = defineCall({ id: 'test.nothing', method: 'POST', path: '/v1/public/nothing', auth: 'public', body: z.object({}), response: z.null() });
    const { http } = setup([new Response(null, { status: 204 }), new Response('', { status: 200 })]);
    expect(await http.call(nothing, { body: {} })).toEqual({ ok: true, status: 204, data: null });
    expect(await http.call(nothing, { body: {} })).toMatchObject({ ok: false, kind: 'bad_response', status: 200 });
  });

  it('reports a rejected fetch as a network failure that may have been sent', async () => {
    const { http } = setup([new TypeError('fetch failed')]);
    expect(await http.call(syncChanges, {})).toMatchObject({ ok: false, kind: 'network', maybeSent: true });
  });

  it('times out on the injected clock with the TIMEOUT message', async () => {
    const { http, clock } = setup([hangingStep()], { timeoutMs: 5_000 });
    const pending = http.call(syncChanges, {});
    await clock.advance(4_999);
    let settled = false;
    void pending.then(() => (settled = true));
    await clock.advance(0);
    expect(settled).toBe(false);
    await clock.advance(1);
    expect(await pending).toEqual({
      ok: false, kind: 'timeout', maybeSent: true,
      error: { message: 'The request timed out. Refresh the page to try again.', error_code: 'TIMEOUT' },
    });
  });

  it('reports the caller aborting as aborted, before and during the request', async () => {
    const before = setup([]);
    const ctrl = new AbortController();
    ctrl.abort();
    expect(await before.http.call(syncChanges, { signal: ctrl.signal })).toMatchObject({ kind: 'aborted', maybeSent: false });
    expect(before.transport.requests).toHaveLength(0);

    const during = setup([hangingStep()]);
    const ctrl2 = new AbortController();
    const pending = during.http.call(syncChanges, { signal: ctrl2.signal });
    ctrl2.abort();
    expect(await pending).toMatchObject({ kind: 'aborted', maybeSent: true });
  });

  it('calls the transport unbound, as a browser fetch requires', async () => {
    const strictFetch = function (this: unknown) {
      if (this !== undefined && this !== globalThis) return Promise.reject(new TypeError('Illegal invocation'));
      return Promise.resolve(jsonResponse(200, { changes: [], checkpoint: 0, has_more: false, high_water: 0, visibility_epoch: 'e' }));
    } as unknown as typeof fetch;
    const { http } = setup([], { transport: strictFetch });
    expect((await http.call(syncChanges, {})).ok).toBe(true);
  });

  it('has no timeout on web and 15 s on mobile (§9)', () => {
    expect(defaultTimeout('web')).toBeNull();
    expect(defaultTimeout('mobile')).toBe(15_000);
    expect(defaultTimeout('other')).toBe(10_000);
  });

  it('opens a stream and keeps its body readable', async () => {
    const { http, transport } = setup([new Response('event: seq\ndata: {"seq":1}\n\n', { status: 200 })]);
    const res = await http.stream(defineCall({ id: 's', method: 'GET', path: '/v1/auth/sync/stream', auth: { scopes: ['default'] }, retry: 'stream', response: z.string() }));
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(await new Response(res.data).text()).toContain('data: {"seq":1}');
    expect(transport.requests[0]!.headers.accept).toBe('text/event-stream');
  });
  it('asks tokenFor for each call when the session provides it (stepped-up token on sensitive calls only)', async () => {
    const stepped = fakeToken(['default', 'sensitive']);
    const sensitive = defineCall({ id: 'y', method: 'POST', path: '/v1/auth/y', auth: { scopes: ['sensitive'] }, response: z.object({}) });
    const { http, transport } = setup([jsonResponse(200, {}), jsonResponse(200, { changes: [], next_seq: 0, has_more: false, epoch: 'e' })], {
      session: {
        getToken: () => FULL,
        tokenFor: (auth) => (auth.kind === 'scopes' && auth.scopes.includes('sensitive') ? stepped : FULL),
        onUnauthorized: () => undefined,
      },
    });
    expect((await http.call(sensitive)).ok).toBe(true);
    await http.call(syncChanges, { query: { since: '0' } as never });
    expect(transport.requests.map((r) => r.headers['ramp-id-token'])).toEqual([stepped, FULL]);
  });
});
