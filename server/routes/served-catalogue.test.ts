import type { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../schema/api/calls.ts';
import type { CallDef } from '../../schema/api/define-call.ts';
import { errorBody, errorV2Schema } from '../../schema/errors.ts';
import { createApp } from '../app.ts';
import type { HandlerMap } from '../http/handler.ts';
import { TEST_TOKEN_SECRET, useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { request } from '../test-fixtures.ts';
import { routeOrder, segmentKinds } from '../http/register.ts';
import { HANDLERS } from './handlers.ts';

// Compile-time half of the contract (npm run typecheck): a map missing one catalogue id is no HandlerMap.
const { 'auth.signIn': _signIn, ...withoutSignIn } = HANDLERS;
// @ts-expect-error 'auth.signIn' is in the catalogue, so a map without its handler must not type-check.
const _incomplete: HandlerMap = withoutSignIn;

/** The router's own not-found, told apart from a handler's 404 (which has the same body). */
const ROUTER_404 = 'x-test-router-not-found';

/** A concrete path for a call: every placeholder filled with a value its params schema accepts. */
const concretePath = (call: CallDef) =>
  call.path.replace(/:([a-z_]+)/g, (_, name: string) => (name === 'token' ? 'a'.repeat(32) : '00000000-0000-4000-8000-000000000000'));

/** Which registered routes (not middleware) Hono's router matches for a request. */
function matchedRoutes(app: Hono, method: string, path: string): string[] {
  const [handlers] = app.router.match(method, path) as unknown as [[[unknown, { method: string; path: string }], unknown][]];
  return handlers.map(([[, route]]) => route).filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`);
}

describe('served catalogue', () => {
  it('has exactly one handler per catalogue id', () => {
    expect(Object.keys(HANDLERS).sort()).toEqual(CATALOGUE.map((c) => c.id).sort());
  });

  it('orders routes static segment first, then parameter, keeping catalogue order otherwise', () => {
    const paths = ['/v1/auth/r/:id', '/v1/auth/r/bulk', '/v1/auth/r/:id/submit', '/v1/auth/r', '/v1/auth/r/bulk-update'];
    expect(paths.map((path) => ({ path })).sort(routeOrder).map((r) => r.path)).toEqual([
      '/v1/auth/r', '/v1/auth/r/bulk', '/v1/auth/r/bulk-update', '/v1/auth/r/:id', '/v1/auth/r/:id/submit',
    ]);
  });

  it('leaves no two catalogue routes of one method and path shape ambiguous (same kinds, one static path each)', () => {
    const seen = new Set<string>();
    for (const c of CATALOGUE) {
      const key = `${c.method} ${c.path.replace(/:[a-z_]+/g, ':')}`;
      expect(seen.has(key), `${c.id}: another route has the same method and shape`).toBe(false);
      seen.add(key);
    }
  });
});

describe.each(await testDatabases())('served catalogue (%s)', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });
  const mark = (app: Hono) => app.notFound((c) => c.json(errorBody('REQUEST_7004'), 404, { [ROUTER_404]: '1' }));

  it.each(CATALOGUE.map((c) => [`${c.method} ${c.path}`, c] as const))('%s reaches its own handler', async (_name, call) => {
    const path = concretePath(call);
    // This entry's route is the first match (the one Hono runs). Any other match is a route with a
    // parameter where this one has a static segment (e.g. `…/:reimbursement_uuid` under `…/bulk`),
    // which a static segment wins in any router: registerCatalogue registers it after this one.
    const [first, ...others] = matchedRoutes(t.app, call.method, path);
    expect(first).toBe(`${call.method} ${call.path}`);
    for (const other of others) {
      const otherPath = other.slice(call.method.length + 1);
      expect(routeOrder(call, { path: otherPath }), `${other} is not shadowed by ${call.path}`).toBeLessThan(0);
      expect(segmentKinds(otherPath).length).toBe(segmentKinds(call.path).length);
    }
    mark(t.app);
    // No token and no body: an authenticated call stops at authentication (inside register), a
    // public one at validation or in its handler; neither is the router's not-found.
    const res = await request(t.app, call.method, path);
    expect(res.headers.get(ROUTER_404), `${call.id} fell through to the router's 404`).toBeNull();
    if (call.auth.kind !== 'public') expect([res.status, res.body]).toMatchObject([401, { error_v2: { error_code: 'AUTH_7002' } }]);
    else if (res.status >= 400) expect(errorV2Schema.safeParse(res.body).success).toBe(true);
  });

  it('leaves a switched-off route unregistered (dev.outbox without devOutbox)', async () => {
    const app = createApp({ db: t.db, tokenSecret: TEST_TOKEN_SECRET });
    try {
      mark(app);
      const res = await request(app, 'GET', '/v1/public/dev/outbox?email=a@example.com');
      expect([res.status, res.headers.get(ROUTER_404)]).toEqual([404, '1']);
    } finally {
      await app.close();
    }
  });
});
