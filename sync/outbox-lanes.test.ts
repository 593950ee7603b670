import { describe, expect, it } from 'vitest';
import { createOutbox, createOutboxEntry, nextEligible } from './outbox.ts';
import { createHttpClient } from './http.ts';
import type { LocalFilesPort, OutboxEntry, UploadState } from './ports.ts';
import { createFakeClock, createMemoryOutboxStore, createRecordingOptimistic, fakeToken, flush, jsonResponse } from './testing.ts';

/**
 * Uploads ride their own lane (issue 9 §2): a slow upload never holds back an unrelated edit,
 * while commands naming its receipt wait for it and go out with the server's receipt id.
 */
const TXN_A = '11111111-1111-4111-8111-111111111111';
const TXN_B = '22222222-2222-4222-8222-222222222222';
const LOCAL = '33333333-3333-4333-8333-333333333333';
const SERVER = '44444444-4444-4444-8444-444444444444';
const SHA = 'ab'.repeat(32);
const BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const RECEIPT = { id: SERVER, content_type: 'image/png', size: BYTES.length, sha256: SHA, created_at: '2026-01-01T00:00:00.000Z' };

type Route = (req: Request) => Promise<Response> | Response;

/** A transport answering by path, recording every request in order of arrival. */
function routedTransport(route: Route) {
  const seen: { method: string; path: string; key: string | null; type: string | null; bytes: number }[] = [];
  const landed: string[] = [];
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(String(input), init);
    const body = init?.body instanceof Uint8Array ? init.body.length : init?.body instanceof Blob ? init.body.size : 0;
    const path = new URL(req.url).pathname;
    seen.push({ method: req.method, path, key: req.headers.get('idempotency-key'), type: req.headers.get('content-type'), bytes: body });
    const res = await route(req);
    if (res.ok) landed.push(`${req.method} ${path}`);
    return res;
  };
  return { transport: fn as typeof fetch, seen, landed };
}

function memoryFiles(): LocalFilesPort & { states: Map<string, UploadState[]>; files: Map<string, Uint8Array> } {
  const files = new Map([[LOCAL, BYTES]]);
  const states = new Map<string, UploadState[]>();
  return {
    files,
    states,
    read: async (id) => (files.has(id) ? { body: files.get(id)!, contentType: 'image/png' } : null),
    async serverIds(ids) {
      const out = new Map<string, string>();
      for (const id of ids) {
        const s = states.get(id)?.at(-1);
        if (s?.kind === 'uploaded') out.set(id, s.server_id);
      }
      return out;
    },
    async setUploadState(id, state) {
      states.set(id, [...(states.get(id) ?? []), state]);
    },
  };
}

function setup(route: Route) {
  const clock = createFakeClock();
  const { transport, seen, landed } = routedTransport(route);
  const store = createMemoryOutboxStore();
  const optimistic = createRecordingOptimistic();
  const session = { getToken: () => fakeToken(['default']), onUnauthorized: () => undefined };
  const http = createHttpClient({ baseUrl: 'http://api.test', transport, clock, session });
  const files = memoryFiles();
  const outbox = createOutbox({ store, http, optimistic, clock, session, files, newKey: () => 'fresh' });
  let order = 0;
  const entry = (id: string, command: Parameters<typeof createOutboxEntry>[0]['command'], args: unknown): OutboxEntry => ({
    ...createOutboxEntry({ id, command, args, now: clock.now() }),
    created_at: clock.now() - 1000 + order++,
  });
  const upload = () => entry('up', 'receipt.upload', { receipt_id: LOCAL, content_type: 'image/png', size: BYTES.length, sha256: SHA });
  const attach = () => entry('attach', 'transaction.attachReceipt', { transaction_id: TXN_A, receipt_id: LOCAL });
  const code = () => entry('code', 'transaction.code', { transaction_id: TXN_B, patch: { memo: 'lunch' } });
  return { clock, outbox, store, files, seen, landed, optimistic, upload, attach, code };
}

const txnRow = (id: string) => ({
  id, card_id: id, user_id: id, merchant_name: 'Acme', merchant_category: 'Software', amount: 1, currency: 'USD',
  occurred_at: '2026-01-01T00:00:00Z', state: 'CLEARED', memo: 'lunch', gl_account_id: null, department_id: null,
  location_id: null, tracking: {}, receipt_ids: [], business_id: id, change_seq: 9, updated_at: '2026-01-01T00:00:00Z', deleted: false,
});

/** A gate the test opens: the upload's answer waits for it (a slow 10 MB upload). */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('outbox lanes: uploads beside edits', () => {
  it('an unrelated edit lands while a slow upload is in flight; the dependent attach waits, then carries the server id', async () => {
    const slow = gate();
    const t = setup(async (req) => {
      const path = new URL(req.url).pathname;
      if (path === '/v1/auth/receipts') {
        await slow.opened;
        return jsonResponse(201, RECEIPT);
      }
      if (path.endsWith('/receipts')) return jsonResponse(200, { transaction_id: TXN_A, receipt_ids: [SERVER], change_seq: 12 });
      return jsonResponse(200, txnRow(TXN_B));
    });
    // Oldest first: upload, then the attach that needs it, then an edit of another transaction.
    await t.store.put(t.upload());
    await t.store.put(t.attach());
    await t.outbox.enqueue(t.code());
    await flush(20);
    expect(t.landed).toEqual([`PATCH /v1/auth/transactions/${TXN_B}`]);
    expect(t.seen.map((r) => r.path)).not.toContain(`/v1/auth/transactions/${TXN_A}/receipts`);
    expect(t.files.states.get(LOCAL)).toEqual([{ kind: 'uploading' }]);

    slow.open();
    await t.outbox.whenIdle();
    expect(t.landed).toEqual([
      `PATCH /v1/auth/transactions/${TXN_B}`,
      'POST /v1/auth/receipts',
      `POST /v1/auth/transactions/${TXN_A}/receipts`,
    ]);
    const up = t.seen.find((r) => r.path === '/v1/auth/receipts')!;
    expect(up).toMatchObject({ key: 'up', type: 'image/png', bytes: BYTES.length });
    expect(t.files.states.get(LOCAL)?.at(-1)).toEqual({ kind: 'uploaded', server_id: SERVER });
    expect(t.store.rows.size).toBe(0);
    // The upload changes no mirrored row: only the edit and the attach are confirmed.
    expect(t.optimistic.calls.map((c) => `${c.op}:${c.id}`)).toEqual(['confirm:code', 'confirm:attach']);
  });

  it('retries an upload with the same Idempotency-Key after a lost answer', async () => {
    let attempts = 0;
    const t = setup(async () => {
      attempts++;
      if (attempts === 1) throw new TypeError('connection reset');
      if (attempts === 2) return jsonResponse(503, {});
      return jsonResponse(201, RECEIPT);
    });
    await t.outbox.enqueue(t.upload());
    await t.outbox.whenIdle();
    expect(t.files.states.get(LOCAL)).toEqual([{ kind: 'uploading' }, { kind: 'local' }]);
    await t.clock.advance(300);
    await t.outbox.whenIdle();
    await t.clock.advance(600);
    await t.outbox.whenIdle();
    expect(t.seen.map((r) => r.key)).toEqual(['up', 'up', 'up']);
    expect(t.seen.every((r) => r.bytes === BYTES.length)).toBe(true);
    expect(t.files.states.get(LOCAL)?.at(-1)).toEqual({ kind: 'uploaded', server_id: SERVER });
  });

  it('an upload over quota (429 QUOTA_EXCEEDED) waits out Retry-After and goes again with its key: nothing is lost', async () => {
    const message = 'You have uploaded 120 receipts in the last hour; try again in 12 minutes.';
    let attempts = 0;
    const t = setup(async (req) => {
      if (new URL(req.url).pathname !== '/v1/auth/receipts') return jsonResponse(200, { transaction_id: TXN_A, receipt_ids: [SERVER], change_seq: 12 });
      attempts++;
      return attempts === 1 ? jsonResponse(429, { error_v2: { error_code: 'QUOTA_EXCEEDED', message } }, { 'Retry-After': '720' }) : jsonResponse(201, RECEIPT);
    });
    await t.store.put(t.upload());
    await t.outbox.enqueue(t.attach());
    await t.outbox.whenIdle();
    // Waiting, not failed: the file is local again, the entry pending until Retry-After has passed.
    const waiting = t.store.rows.get('up');
    expect(waiting).toMatchObject({ state: 'pending', last_error: { error_code: 'QUOTA_EXCEEDED', message } });
    expect(waiting!.not_before - t.clock.now()).toBe(720_000);
    expect(t.files.states.get(LOCAL)).toEqual([{ kind: 'uploading' }, { kind: 'local' }]);
    expect(t.store.rows.get('attach')).toMatchObject({ state: 'pending' });
    expect(t.optimistic.calls.filter((c) => c.op === 'rollback')).toEqual([]);
    await t.clock.advance(719_000);
    await t.outbox.whenIdle();
    expect(t.seen).toHaveLength(1);
    await t.clock.advance(1_000);
    await t.outbox.whenIdle();
    expect(t.seen.map((r) => `${r.path} ${r.key}`)).toEqual(['/v1/auth/receipts up', '/v1/auth/receipts up', `/v1/auth/transactions/${TXN_A}/receipts attach`]);
    expect(t.files.states.get(LOCAL)?.at(-1)).toEqual({ kind: 'uploaded', server_id: SERVER });
    expect(t.store.rows.size).toBe(0);
  });

  it.each([
    [415, 'UPLOAD_7101', 'This file type is not supported.'],
    [413, 'UPLOAD_7103', 'The file is too large.'],
  ])('a refused upload (%i) ends failed with the server message; the file stays; its attach keeps waiting', async (status, code, message) => {
    const t = setup(async (req) =>
      new URL(req.url).pathname === '/v1/auth/receipts'
        ? jsonResponse(status, { error_v2: { error_code: code, message } })
        : jsonResponse(200, txnRow(TXN_B)));
    await t.store.put(t.upload());
    await t.outbox.enqueue(t.attach());
    await t.outbox.whenIdle();
    expect(t.store.rows.get('up')).toMatchObject({ state: 'failed', last_error: { error_code: code, message } });
    expect(t.files.states.get(LOCAL)?.at(-1)).toEqual({ kind: 'failed', error: { error_code: code, message } });
    expect(t.files.files.has(LOCAL)).toBe(true);
    expect(t.store.rows.get('attach')).toMatchObject({ state: 'pending' });
    expect(t.seen).toHaveLength(1);
  });

  it('an upload found sending after a reload is uploading no more: back to waiting, re-sent with its key', async () => {
    const t = setup(async () => jsonResponse(201, RECEIPT));
    await t.store.put({ ...t.upload(), state: 'sending', attempts: 1 });
    await t.files.setUploadState(LOCAL, { kind: 'uploading' });
    t.outbox.kick();
    await t.outbox.whenIdle();
    expect(t.files.states.get(LOCAL)).toEqual([{ kind: 'uploading' }, { kind: 'local' }, { kind: 'uploading' }, { kind: 'uploaded', server_id: SERVER }]);
    expect(t.seen.map((r) => r.key)).toEqual(['up']);
  });

  it('refuses an upload whose file is gone from the device, without a request', async () => {
    const t = setup(async () => jsonResponse(201, RECEIPT));
    t.files.files.clear();
    await t.outbox.enqueue(t.upload());
    await t.outbox.whenIdle();
    expect(t.seen).toHaveLength(0);
    expect(t.store.rows.get('up')).toMatchObject({ state: 'failed', last_error: { message: 'The file is no longer on this device.' } });
  });

  it('a claim naming a receipt captured offline waits for its upload and is sent with the server id', async () => {
    const CLAIM = '55555555-5555-4555-8555-555555555555';
    let sent: { receipt_ids?: string[] } | null = null;
    const t = setup(async (req) => {
      const path = new URL(req.url).pathname;
      if (path === '/v1/auth/receipts') return jsonResponse(201, RECEIPT);
      sent = (await req.json()) as { receipt_ids?: string[] };
      return jsonResponse(200, {
        id: CLAIM, user_id: CLAIM, business_id: CLAIM, type: 'OUT_OF_POCKET', status: 'SUBMITTED', merchant: null, amount: 500,
        currency: 'USD', transaction_date: '2026-01-01', memo: null, gl_account_id: null, department_id: null, distance_miles: null,
        start_location: null, end_location: null, trip_date: null, location: null, start_date: null, end_date: null,
        rejection_reason: null, receipt_ids: [SERVER], submitted_at: '2026-01-01T00:00:00.000Z', created_at: '2026-01-01T00:00:00.000Z',
        change_seq: 3, updated_at: '2026-01-01T00:00:00.000Z', deleted: false,
      });
    });
    const create = { ...createOutboxEntry({
      id: 'claim', command: 'reimbursement.create', now: t.clock.now(),
      args: { id: CLAIM, amount: 500, currency: 'USD', transaction_date: '2026-01-01', submit: true, receipt_ids: [LOCAL] },
    }), created_at: t.clock.now() + 10 };
    await t.store.put(t.upload());
    await t.outbox.enqueue(create);
    await t.outbox.whenIdle();
    expect(t.landed).toEqual(['POST /v1/auth/receipts', 'POST /v1/auth/reimbursements/out_of_pocket']);
    expect(sent).toMatchObject({ id: CLAIM, receipt_ids: [SERVER] });
    // The stored entry kept the client id (its optimistic row names the receipt as captured).
    expect(create.args).toMatchObject({ receipt_ids: [LOCAL] });
  });
});

describe('nextEligible with lanes', () => {
  const base = (id: string, command: 'receipt.upload' | 'transaction.attachReceipt' | 'transaction.code', args: unknown, at: number) => ({
    ...createOutboxEntry({ id, command, args, now: 0 }),
    created_at: at,
  });
  const up = base('up', 'receipt.upload', { receipt_id: LOCAL, content_type: 'image/png', size: 3, sha256: SHA }, 1);
  const attach = base('attach', 'transaction.attachReceipt', { transaction_id: TXN_A, receipt_id: LOCAL }, 2);
  const code = base('code', 'transaction.code', { transaction_id: TXN_B, patch: { memo: 'x' } }, 3);

  it.each([
    ['main lane skips the waiting attach for the unrelated edit', 'main', [up, attach, code], 'code'],
    ['upload lane takes the upload', 'upload', [up, attach, code], 'up'],
    ['the attach goes once the upload is gone', 'main', [attach, code], 'attach'],
    ['no lane: the oldest sendable', undefined, [up, attach, code], 'up'],
    ['an upload in flight still holds its attach', 'main', [{ ...up, state: 'sending' as const }, attach], null],
  ] as const)('%s', (_name, lane, entries, expected) => {
    expect(nextEligible(entries, 10, lane)?.id ?? null).toBe(expected);
  });
});
