import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../schema/api/calls.ts';
import { errorV2Schema } from '../../schema/errors.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';

/** Deterministic PRNG (mulberry32) so a failing fuzz case reproduces. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const NASTY: unknown[] = [
  null, true, -1, 0, 1e308, -1e308, 2 ** 63, 1.5, '', ' ', 'x'.repeat(5000), '\u0000', 'a\u0000b', '%', "'; DROP TABLE x; --",
  '../../etc/passwd', '😀', '\ud800', [], [null], {}, { __proto__: { polluted: true } }, '2026-13-45', 'NaN',
  '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
];
const NASTY_TEXT = ['', '%', '%zz', '%00', 'abc', '-1', '1e400', '99999999999999999999', 'true,false', ',,,', '\u0000'.toString(), '😀'];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function nastyBody(r: () => number, depth = 0): unknown {
  if (depth > 2 || r() < 0.4) return pick(r, NASTY);
  const keys = ['filters', 'sort', 'paging', 'include_count', 'transaction_ids', 'patch', 'memo', 'gl_account_id', 'tracking', 'q', 'page_size', 'start', 'email', 'password', 'amount_min', 'from', 'states', 'user_ids'];
  const obj: Record<string, unknown> = {};
  for (let i = 0; i < 1 + Math.floor(r() * 4); i++) obj[pick(r, keys)] = nastyBody(r, depth + 1);
  return obj;
}

describe.each(await testDatabases())('validation and errors on %s', (kind) => {
  const t = useTestApp(kind, { logError: () => {} });

  it('answers missing and malformed fields with §5 messages (422 REQUEST_7001)', async () => {
    const f = await makeBusiness(t.db, { transactions: 3 });
    const token = await signIn(t.app, f.email('admin'));
    const missing = await request(t.app, 'PATCH', '/v1/auth/accounting/coding/bulk-update', { token, body: { patch: { memo: 'x' } } });
    expect(missing.status).toBe(422);
    expect(missing.body.error_v2).toMatchObject({ error_code: 'REQUEST_7001', message: 'transaction_ids is required' });
    expect(missing.body.error_v2.errors).toEqual({ transaction_ids: 'transaction_ids is required' });
    const invalid = await request(t.app, 'PATCH', `/v1/auth/transactions/${f.allTransactions[0]}`, { token, body: { gl_account_id: 'nope' } });
    expect(invalid.body.error_v2.errors).toEqual({ gl_account_id: 'gl_account_id must be a valid uuid' });
    const badParam = await request(t.app, 'GET', '/v1/auth/transactions/not-a-uuid', { token });
    expect(badParam.body.error_v2.errors).toEqual({ transaction_canonical_uuid: 'transaction_canonical_uuid must be a valid uuid' });
  });

  it('answers malformed JSON with 422, unknown paths with 404 and wrong methods with 405', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('admin'));
    const bad = await request(t.app, 'POST', '/v1/auth/transactions/search', { token, rawBody: '{"filters":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error_v2.error_code).toBe('REQUEST_7001');
    const missing = await request(t.app, 'GET', '/v1/auth/no-such-thing', { token });
    expect(missing).toMatchObject({ status: 404, body: { error_v2: { error_code: 'REQUEST_7004' } } });
    const method = await request(t.app, 'DELETE', '/v1/auth/transactions/search', { token });
    expect(method).toMatchObject({ status: 405, body: { error_v2: { error_code: 'REQUEST_7005' } } });
  });

  it('refuses oversized bodies with 413', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('admin'));
    const res = await request(t.app, 'POST', '/v1/auth/transactions/search', { token, rawBody: 'x'.repeat(3 * 1024 * 1024), headers: { 'content-type': 'application/json' } });
    expect(res).toMatchObject({ status: 413, body: { error_v2: { error_code: 'REQUEST_7013' } } });
  });

  it('never answers 500 to fuzzed input on any catalogue route', async () => {
    const f: Fixture = await makeBusiness(t.db, { transactions: 20 });
    const token = await signIn(t.app, f.email('admin'));
    const r = rng(kind === 'pg' ? 7 : 42);
    const failures: string[] = [];
    for (const call of CATALOGUE) {
      if (call.id === 'sync.stream' || call.id === 'users.signOut' || call.id === 'users.signOutAllSessions') continue;
      for (let i = 0; i < 25; i++) {
        const path = call.path.replace(/:[a-z_]+/g, () => encodeURIComponent(String(pick(r, [...NASTY_TEXT, f.allTransactions[0]!]))).replace('%25zz', '%zz'));
        const qs = call.query ? `?${['page_size', 'start', 'include_count', 'q', 'amount_min', 'from', 'states', 'after', 'limit', 'user_ids'].filter(() => r() < 0.4).map((k) => `${k}=${pick(r, NASTY_TEXT)}`).join('&')}` : '';
        const rawBody = call.body ? (r() < 0.15 ? '{"broken' : JSON.stringify(nastyBody(r))) : undefined;
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (call.idempotent && r() < 0.3) headers['Idempotency-Key'] = pick(r, ['k', ' ', 'x'.repeat(300), `fuzz-${i}`]);
        const res = await request(t.app, call.method, path + qs, { token, rawBody, headers });
        const shapeOk = res.status < 400 ? call.response.safeParse(res.body).success : errorV2Schema.safeParse(res.body).success;
        if (res.status >= 500 || !shapeOk) failures.push(`${call.method} ${path}${qs} ${rawBody ?? ''} → ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
