import { onTestFinished } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { RxStorage } from 'rxdb';
import { errorBody } from '../../schema/errors.ts';
import { createFakeClock, fakeToken, jsonResponse, type FakeClock } from '../../sync/testing.ts';
import type { Transport } from '../../sync/ports.ts';
import { createDataService, type DataService } from '../data-service.ts';
import { mirrorStorage } from '../db.ts';
import { soleLeader } from '../leader.ts';
import { SessionStore } from '../session-store.ts';
import { signedInAdmin } from '../test-fixtures.ts';

export interface TestDeviceOptions {
  transport: Transport;
  /** The device's IndexedDB, when the test seeds it first (e.g. `seedMirrorDb`). Default: a fresh one. */
  idb?: IDBFactory;
  /** The mirror's storage, when the test opens the same storage itself. Default: `mirrorStorage` over `idb`. */
  storage?: RxStorage<unknown, unknown>;
  /** The clock, when the test moves it. Default: a fresh fake clock. */
  clock?: FakeClock;
}

/**
 * One device as the worker tests drive it: a fake IndexedDB (session store and mirror on the same
 * factory, the mirror on the app's own storage), a fake clock, the sole leader, no sync engine,
 * deferred work run at once. `make()` is a tab's data worker on it (a reload is another `make()`),
 * not yet `init`ed, disposed when the test finishes (however it ends).
 */
export function testDevice(opts: TestDeviceOptions): { idb: IDBFactory; clock: FakeClock; make: () => DataService } {
  const idb = opts.idb ?? new IDBFactory();
  const clock = opts.clock ?? createFakeClock();
  const make = () => {
    const service = createDataService({
      sessionStore: new SessionStore({ indexedDB: idb, IDBKeyRange }),
      transport: opts.transport,
      clock,
      elector: soleLeader,
      storage: opts.storage ?? mirrorStorage({ indexedDB: idb, IDBKeyRange }),
      multiInstance: false,
      sync: false,
      defer: (fn) => fn(),
    });
    onTestFinished(() => service.dispose());
    return service;
  };
  return { idb, clock, make };
}

/** A device's data worker (`testDevice`), `init`ed against `http://api.test`. */
export async function startWorker(opts: TestDeviceOptions): Promise<DataService> {
  const service = testDevice(opts).make();
  await service.init({ baseUrl: 'http://api.test' });
  return service;
}

/** One request the worker sent to a call under test. */
export interface WorkerRequest {
  method: string;
  url: URL;
  path: string;
  search: URLSearchParams;
  /** The JSON body parsed (null without a body; the raw text when it is no JSON). */
  body: unknown;
  /** The raw body ('' without one). */
  text: string;
  headers: Headers;
}

export interface SignedInWorkerOptions {
  /** Answers a call under test; null or undefined answers 404 REQUEST_7004. */
  route: (req: WorkerRequest) => Response | null | undefined;
  /** The calls under test (a path prefix or a pattern): routed and recorded; others answer 404. Default: every call. */
  calls?: string | RegExp;
  /** How a call reads in `sent`. Default: method, path with query, raw body (`POST /v1/… {"a":1}`). */
  record?: (req: WorkerRequest) => string;
  /** Token scopes of the sign-in (default `['default']`). */
  scopes?: string[];
  /** Sign in (default); false leaves the worker signed out (the sign-in, identity and flags calls still answer). */
  signIn?: boolean;
}

/** `METHOD /path`: a call recorded without query or body. */
export const methodAndPath = (req: WorkerRequest): string => `${req.method} ${req.path}`;
const fullCall = (req: WorkerRequest): string => `${req.method} ${req.path}${req.url.search} ${req.text}`.trim();

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A server that answers only `signedInAdmin()`'s sign-in (a token of `scopes`) and identity, and
 * 404 to anything else: for tests of what the mirror already holds (no sync engine runs).
 */
export function signInOnly(scopes: string[]): Transport {
  const { user, business, identity } = signedInAdmin();
  return async (input) => {
    const url = new URL(String(input));
    if (url.pathname === '/v1/public/sign-in') return jsonResponse(200, { id_token: fakeToken(scopes), mfa_required: false });
    if (url.pathname === '/v1/auth/identity') return jsonResponse(200, { identity, user, business });
    return jsonResponse(404, errorBody('REQUEST_7004'));
  };
}

/**
 * A worker signed in as `signedInAdmin()` against a scripted server: sign-in, identity, its
 * scopes (none besides the business) and feature flags (none) are answered here, the calls under test by `route`; `sent` records those
 * calls in order (`record`'s words).
 */
export async function signedInWorker(opts: SignedInWorkerOptions): Promise<{ service: DataService; sent: string[] }> {
  const { user, business, identity } = signedInAdmin();
  const record = opts.record ?? fullCall;
  const under = (path: string) =>
    opts.calls === undefined || (typeof opts.calls === 'string' ? path.startsWith(opts.calls) : opts.calls.test(path));
  const sent: string[] = [];
  const transport: Transport = async (input, init) => {
    const url = new URL(String(input));
    if (url.pathname === '/v1/public/sign-in') return jsonResponse(200, { id_token: fakeToken(opts.scopes ?? ['default']), mfa_required: false });
    if (url.pathname === '/v1/auth/identity') return jsonResponse(200, { identity, user, business });
    if (url.pathname === '/v1/auth/feature_flags') return jsonResponse(200, { flags: {} });
    // A sign-in also reads the identity's scopes (issue 31: the account menu's "Switch account").
    if (url.pathname === '/v1/auth/identity/scopes') return jsonResponse(200, { scopes: [] });
    if (!under(url.pathname)) return jsonResponse(404, errorBody('REQUEST_7004'));
    const text = init?.body ? String(init.body) : '';
    const req: WorkerRequest = {
      method: init?.method ?? 'GET', url, path: url.pathname, search: url.searchParams, body: parseBody(text), text, headers: new Headers(init?.headers),
    };
    sent.push(record(req));
    return opts.route(req) ?? jsonResponse(404, errorBody('REQUEST_7004'));
  };
  const service = await startWorker({ transport });
  if (opts.signIn ?? true) await service.signIn(user.email, 'demo-password-1');
  return { service, sent };
}
