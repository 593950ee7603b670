import { describe, expect, it, onTestFinished } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { errorBody } from '../schema/errors.ts';
import { createFakeClock, fakeToken, flush, jsonResponse } from '../sync/testing.ts';
import type { Transport } from '../sync/ports.ts';
import { createDataService } from './data-service.ts';
import { mirrorDbName, mirrorStorage } from './db.ts';
import { soleLeader } from './leader.ts';
import { mirrorOnDisk } from './mirror-host.ts';
import { SessionStore } from './session-store.ts';
import { BUSINESS_ID, makeTransactions, seedMirrorDb, signedInAdmin, testUuid } from './test-fixtures.ts';

/**
 * Issue 33: a first sign-in asks its mirror's first feed page while identity is asked (the token
 * names the business and user), and the sync engine stores that answer instead of asking again;
 * a mirror already holding rows, or a sign-in that fails, asks nothing early.
 */
const { user: USER, business: BUSINESS, identity: IDENTITY } = signedInAdmin();
const TOKEN = fakeToken(['default'], { sub: testUuid(8, 1), business_id: BUSINESS_ID, ramp_user_uuid: USER.id });
const [ROW] = makeTransactions(1, 4);
const TOP = 50;

/** The walk as the server answers it: one transaction, then the forward feed's empty end. */
const firstPage = {
  changes: [{ collection: 'transactions', seq: TOP, id: ROW!.id, deleted: false, doc: ROW }],
  checkpoint: TOP, has_more: false, high_water: TOP, visibility_epoch: 'e1', total: 1, backfill: { top: TOP, stage: 'queried', before: TOP },
};
const forwardEnd = { changes: [], checkpoint: TOP, has_more: false, high_water: TOP, visibility_epoch: 'e1' };

/** Our transport port scripted per path; identity answers only when the test releases it. */
function server(opts: { identity?: 'answers' | 'refuses'; holdFeed?: boolean } = {}) {
  const sent: { path: string; search: string; aborted: () => boolean }[] = [];
  let release = () => undefined as void;
  const identityHeld = new Promise<void>((resolve) => (release = resolve));
  const transport: Transport = async (input, init) => {
    const url = new URL(String(input));
    const signal = init?.signal ?? undefined;
    sent.push({ path: url.pathname, search: url.search, aborted: () => signal?.aborted === true });
    switch (url.pathname) {
      case '/v1/public/sign-in':
        return jsonResponse(200, { id_token: TOKEN, mfa_required: false });
      case '/v1/auth/identity': {
        await identityHeld;
        if (opts.identity === 'refuses') return jsonResponse(403, errorBody('SURFACE_7001'));
        return jsonResponse(200, { identity: IDENTITY, user: USER, business: BUSINESS, businesses: [{ id: BUSINESS_ID, name: BUSINESS.name }] });
      }
      case '/v1/auth/sync/changes':
        // Held: answers nothing until the request is aborted.
        if (opts.holdFeed) await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
        if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
        return jsonResponse(200, url.searchParams.has('backfill') ? firstPage : forwardEnd);
      case '/v1/auth/sync/stream':
        // Held open, like the server's stream, until the engine stops.
        return new Response(new ReadableStream({ start: (c) => signal?.addEventListener('abort', () => c.error(signal.reason)) }), {
          status: 200, headers: { 'Content-Type': 'text/event-stream' },
        });
      default:
        return jsonResponse(404, errorBody('REQUEST_7004'));
    }
  };
  const feed = () => sent.filter((r) => r.path === '/v1/auth/sync/changes');
  return { transport, sent, feed, release };
}

async function device(srv: ReturnType<typeof server>, idb = new IDBFactory()) {
  const service = createDataService({
    sessionStore: new SessionStore({ indexedDB: idb, IDBKeyRange }),
    transport: srv.transport,
    clock: createFakeClock(),
    elector: soleLeader,
    storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }),
    multiInstance: false,
    defer: (fn) => fn(),
  });
  onTestFinished(() => service.dispose());
  await service.init({ baseUrl: 'http://api.test' });
  return service;
}

describe('a first sign-in\'s first feed page (issue 33)', () => {
  it('is asked while identity is still unanswered, and stored by the engine without asking it again', async () => {
    const srv = server();
    const service = await device(srv);
    const signedIn = service.signIn(USER.email, 'demo-password-1');
    await expect.poll(() => srv.feed().map((r) => r.search)).toEqual(['?backfill=true&limit=1000']);
    expect(srv.sent.filter((r) => r.path === '/v1/auth/sync/stream')).toEqual([]);
    srv.release();
    expect(await signedIn).toMatchObject({ ok: true, session: { user: { id: USER.id }, business: { id: BUSINESS_ID } } });
    await expect.poll(async () => (await service.status()).mirrored, { timeout: 5_000 }).toBe(true);
    expect((await service.queryTransactions({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 5 })).rows.map((r) => r.id)).toEqual([ROW!.id]);
    // The walk's first page went out once (the early one, taken by the engine's puller); the last
    // forward page is the live loop's catch-up from after the stream opened.
    await expect.poll(() => srv.feed().length).toBe(3);
    expect(srv.feed().map((r) => r.search)).toEqual(['?backfill=true&limit=1000', `?after=${TOP}&limit=2000`, `?after=${TOP}&limit=2000`]);
  });

  it('is not asked early for a mirror that already holds rows: the engine pulls forward from its checkpoint', async () => {
    const idb = new IDBFactory();
    await seedMirrorDb(idb, mirrorDbName(BUSINESS_ID, USER.id), makeTransactions(3, 5), 'Meals');
    const srv = server();
    const service = await device(srv, idb);
    const signedIn = service.signIn(USER.email, 'demo-password-1');
    await expect.poll(() => srv.sent.some((r) => r.path === '/v1/auth/identity')).toBe(true);
    await flush(20);
    expect(srv.feed()).toEqual([]);
    srv.release();
    expect(await signedIn).toMatchObject({ ok: true });
    // Its checkpoint (seq 4), not a walk: the first ask is the forward feed after it.
    await expect.poll(() => srv.feed()[0]?.search).toBe('?after=4&limit=2000');
  });

  it('is dropped (aborted) when identity refuses the token, and the sign-in fails as before', async () => {
    const srv = server({ identity: 'refuses', holdFeed: true });
    const service = await device(srv);
    const signedIn = service.signIn(USER.email, 'demo-password-1');
    await expect.poll(() => srv.feed().length).toBe(1);
    srv.release();
    expect(await signedIn).toMatchObject({ ok: false, error: { error_code: 'SURFACE_7001' } });
    await expect.poll(() => srv.feed()[0]!.aborted()).toBe(true);
    expect(srv.feed()).toHaveLength(1);
    expect(await service.session()).toBeNull();
  });

  it('mirrorOnDisk: false only when IndexedDB lists none of the mirror\'s stores; null when it cannot tell', async () => {
    const idb = new IDBFactory();
    const name = mirrorDbName(BUSINESS_ID, USER.id);
    expect(await mirrorOnDisk(name, undefined, idb)).toBe(false);
    await seedMirrorDb(idb, name, makeTransactions(1, 5), 'Meals');
    expect(await mirrorOnDisk(name, undefined, idb)).toBe(true);
    expect(await mirrorOnDisk(mirrorDbName(BUSINESS_ID, testUuid(1, 7)), undefined, idb)).toBe(false);
    expect(await mirrorOnDisk(name, mirrorStorage({ indexedDB: idb, IDBKeyRange }), idb)).toBeNull();
  });
});
