import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CATALOGUE } from '../../schema/api/calls.ts';
import { strictDeep } from '../../schema/api/define-call.ts';
import { errorV2Schema, validationMessages } from '../../schema/errors.ts';
import { listen } from '../serve.ts';
import { testDatabases } from '../test-db.ts';
import { TEST_TOKEN_SECRET, useTestApp } from '../test-app.ts';
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
  '../../etc/passwd', '😀', '\ud800', 'x\udfffy', [], [null], {}, { __proto__: { polluted: true } }, '2026-13-45', 'NaN',
  '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
];
const CONTENT_TYPES = ['application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', undefined];
const NASTY_TEXT = ['', '%', '%zz', '%00', '%ED%A0%80', '%F0%9F%98%80', 'abc', '-1', '1e400', '99999999999999999999', 'true,false', ',,,', '\u0000'.toString(), '😀'];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function nastyBody(r: () => number, depth = 0): unknown {
  if (depth > 2 || r() < 0.4) return pick(r, NASTY);
  const keys = ['filters', 'sort', 'paging', 'include_count', 'transaction_ids', 'patch', 'memo', 'gl_account_id', 'tracking', 'q', 'page_size', 'start', 'email', 'password', 'amount_min', 'from', 'states', 'user_ids', 'not_a_field', '\ud800'];
  const obj: Record<string, unknown> = {};
  for (let i = 0; i < 1 + Math.floor(r() * 4); i++) obj[pick(r, keys)] = nastyBody(r, depth + 1);
  return obj;
}

describe('§5 messages from zod issues', () => {
  const body = strictDeep(z.object({
    name: z.string().min(1).max(5),
    count: z.number().int().min(1).optional(),
    id: z.uuid().optional(),
    email: z.email().optional(),
    day: z.iso.date().optional(),
    kind: z.enum(['A', 'B']).optional(),
    flag: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
    tags: z.array(z.string()).max(2).optional(),
    nested: z.object({ when: z.iso.date() }).optional(),
    byId: z.record(z.uuid(), z.number()).optional(),
    site: z.url().optional(),
    code: z.string().regex(/^\d{6}$/, 'code must be 6 digits').optional(),
  }));
  it.each([
    [{}, 'name', 'name is required'],
    [{ name: '' }, 'name', 'name is required'],
    [{ name: null }, 'name', 'name must be a valid string'],
    [{ name: 5 }, 'name', 'name must be a valid string'],
    [{ name: 'abcdefg' }, 'name', 'name must be at most 5 characters long'],
    [{ name: 'a', count: 'x' }, 'count', 'count must be a valid number'],
    [{ name: 'a', count: 1.5 }, 'count', 'count must be a valid integer'],
    [{ name: 'a', count: 0 }, 'count', 'count must be at least 1'],
    [{ name: 'a', id: 'nope' }, 'id', 'id must be a valid uuid'],
    [{ name: 'a', email: 'nope' }, 'email', 'email must be a valid email'],
    [{ name: 'a', day: '2026-13-45' }, 'day', 'day must be a valid date'],
    [{ name: 'a', kind: 'C' }, 'kind', 'kind must be one of A, B'],
    [{ name: 'a', flag: 'yes' }, 'flag', 'flag must be a valid boolean'],
    [{ name: 'a', tags: 'x' }, 'tags', 'tags must be a valid array'],
    [{ name: 'a', tags: ['a', 'b', 'c'] }, 'tags', 'tags must have at most 2 items'],
    [{ name: 'a', tags: [1] }, 'tags.0', 'tags.0 must be a valid string'],
    [{ name: 'a', nested: 'x' }, 'nested', 'nested must be a valid object'],
    [{ name: 'a', nested: {} }, 'nested.when', 'nested.when is required'],
    [{ name: 'a', byId: { nope: 1 } }, 'byId.nope', 'byId.nope must be a valid uuid'],
    [{ name: 'a', site: 'not a url' }, 'site', 'Invalid URL'],
    [{ name: 'a', code: '12' }, 'code', 'code must be 6 digits'],
    [{ name: 'a', colour: 'red' }, 'colour', 'colour is not allowed'],
    [{ name: 'a', nested: { when: '2026-01-01', extra: 1 } }, 'nested.extra', 'nested.extra is not allowed'],
  ])('%j → %s: %s', (input, path, message) => {
    const r = body.safeParse(input);
    expect(r.success).toBe(false);
    if (!r.success) expect(validationMessages(r.error, input)[path]).toBe(message);
  });

  it('makes every write body of the catalogue refuse unknown fields', () => {
    // A file upload's body is its bytes, never a JSON object.
    for (const call of CATALOGUE.filter((c) => c.upload)) expect(call.body!.safeParse({ surely_not_a_field: 1 }).success, call.id).toBe(false);
    // A body that is a union on a discriminator ('type') is checked per branch: zod reports the
    // missing discriminator first, and each branch must refuse unknown fields on its own.
    const branches = (schema: z.ZodType): { schema: z.ZodType; base: Record<string, unknown> }[] =>
      schema instanceof z.ZodDiscriminatedUnion
        ? (schema.options as z.ZodObject[]).map((o) => {
            const key = schema._zod.def.discriminator;
            return { schema: o, base: { [key]: (o.shape[key] as z.ZodLiteral).value } };
          })
        : [{ schema, base: {} }];
    for (const call of CATALOGUE.filter((c) => c.body && !c.upload)) {
      for (const { schema, base } of branches(call.body!)) {
        const r = schema.safeParse({ ...base, surely_not_a_field: 1 });
        expect(r.success, call.id).toBe(false);
        if (!r.success) expect(validationMessages(r.error, {}), call.id).toHaveProperty('surely_not_a_field', 'surely_not_a_field is not allowed');
      }
    }
  });
});

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

  const memoOf = async (id: string) =>
    (await t.db.query<{ memo: string | null }>('SELECT memo FROM transactions WHERE id = $1', [id]))[0]!.memo;

  it.each([
    ['text/plain', '{"email":"a@b.co","password":"x"}'],
    ['text/plain;charset=UTF-8', '{"events":[]}'],
    ['application/x-www-form-urlencoded', 'email=a%40b.co&password=x'],
    ['multipart/form-data; boundary=x', '--x--'],
    ['application/jsonp', '{}'],
    [null, '{}'],
  ])('refuses a %s body with 415 before any handler runs', async (type, rawBody) => {
    const headers: Record<string, string> = { Origin: 'https://evil.example' };
    if (type) headers['content-type'] = type;
    for (const path of ['/v1/public/telemetry', '/v1/public/sign-in']) {
      const res = await t.app.request(path, { method: 'POST', headers, body: rawBody });
      expect(res.status, path).toBe(415);
      expect(await res.json()).toEqual({ error_v2: { error_code: 'REQUEST_7015', message: 'Send the request body as application/json.' } });
    }
  });

  it('takes application/json with parameters, and a POST without a body', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const res = await request(t.app, 'POST', '/v1/public/sign-in', {
      rawBody: JSON.stringify({ email: f.email('admin'), password: 'fixture-password-1' }),
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
    });
    expect(res.status).toBe(200);
    const token = (res.body as { id_token: string }).id_token;
    const empty = await request(t.app, 'POST', '/v1/auth/users/current/sign-out', { token, headers: { 'content-type': 'text/plain' } });
    expect(empty.status).toBe(200);
  });

  it('refuses invalid Unicode in the body, query and path with 422 naming the field, and stores nothing', async () => {
    const f = await makeBusiness(t.db, { transactions: 1 });
    const token = await signIn(t.app, f.email('admin'));
    const id = f.allTransactions[0]!;
    const memoBefore = await memoOf(id);
    const path = `/v1/auth/transactions/${id}`;
    const headers = { 'RAMP-ID-TOKEN': token, 'content-type': 'application/json' };
    const escaped = await t.app.request(path, { method: 'PATCH', headers, body: '{"memo":"lone \\ud800 surrogate"}' });
    expect(escaped.status).toBe(422);
    expect((await escaped.json()).error_v2.errors).toEqual({ memo: 'memo must be a valid Unicode string' });
    const rawBytes = Buffer.concat([Buffer.from('{"memo":"raw '), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    const raw = await t.app.request(path, { method: 'PATCH', headers, body: rawBytes });
    expect(raw.status).toBe(422);
    expect((await raw.json()).error_v2.errors).toEqual({ memo: 'memo must be a valid Unicode string' });
    const nested = await t.app.request('/v1/auth/accounting/coding/bulk-update', {
      method: 'PATCH', headers, body: JSON.stringify({ transaction_ids: [id], patch: { memo: 'ok' } }).replace('"ok"', '"\\udfff"'),
    });
    expect((await nested.json()).error_v2.errors).toMatchObject({ 'patch.memo': 'patch.memo must be a valid Unicode string' });
    expect(await memoOf(id)).toBe(memoBefore);

    const query = await request(t.app, 'GET', '/v1/auth/transactions?q=%ED%A0%80', { token });
    expect(query.status).toBe(422);
    expect(query.body.error_v2.errors).toEqual({ q: 'q must be a valid Unicode string' });
    const param = await request(t.app, 'GET', '/v1/auth/transactions/%ED%A0%80', { token });
    expect(param.status).toBe(422);
    expect(param.body.error_v2.errors).toMatchObject({ transaction_canonical_uuid: 'transaction_canonical_uuid must be a valid Unicode string' });
    // A paired surrogate (an emoji) is valid text and is kept.
    const emoji = await request(t.app, 'PATCH', path, { token, body: { memo: 'lunch 😀' } });
    expect(emoji.status).toBe(200);
    expect(emoji.body.memo).toBe('lunch 😀');
  });

  it('answers wrong types with "must be a valid", and refuses unknown fields without writing', async () => {
    const f = await makeBusiness(t.db, { transactions: 2 });
    const token = await signIn(t.app, f.email('admin'));
    const id = f.allTransactions[0]!;
    const memoBefore = await memoOf(id);
    const wrong = await request(t.app, 'PATCH', '/v1/auth/accounting/coding/bulk-update', { token, body: { transaction_ids: 'x', patch: { memo: 5 } } });
    expect(wrong.body.error_v2.errors).toEqual({ transaction_ids: 'transaction_ids must be a valid array', 'patch.memo': 'patch.memo must be a valid string' });
    const search = await request(t.app, 'POST', '/v1/auth/transactions/search', { token, body: { sort: 'sideways', include_count: 'yes' } });
    expect(search.body.error_v2.errors).toEqual({
      sort: 'sort must be one of occurred_desc, occurred_asc, amount_desc, amount_asc, merchant_asc',
      include_count: 'include_count must be a valid boolean',
    });
    const extra = await request(t.app, 'PATCH', `/v1/auth/transactions/${id}`, { token, body: { memo: 'kept out', colour: 'red' } });
    expect(extra.status).toBe(422);
    expect(extra.body.error_v2).toMatchObject({ error_code: 'REQUEST_7001', message: 'colour is not allowed', errors: { colour: 'colour is not allowed' } });
    const deep = await request(t.app, 'POST', '/v1/auth/transactions/search', { token, body: { filters: { q: 'x', owner: 'me' }, paging: { page_size: 5, offset: 10 } } });
    expect(deep.body.error_v2.errors).toEqual({ 'filters.owner': 'filters.owner is not allowed', 'paging.offset': 'paging.offset is not allowed' });
    const signInExtra = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email: f.email('admin'), password: 'fixture-password-1', is_admin: true } });
    expect(signInExtra.body.error_v2.errors).toEqual({ is_admin: 'is_admin is not allowed' });
    expect(await memoOf(id)).toBe(memoBefore);
  });

  it('answers a 60,000-character query string on a listening server with 431 error_v2, not a bare 431', async () => {
    const server = await listen({ db: t.db, tokenSecret: TEST_TOKEN_SECRET, host: '127.0.0.1', port: 0, logError: () => {} });
    try {
      const res = await fetch(`${server.url}/v1/auth/transactions?q=${'a'.repeat(60_000)}`);
      expect(res.status).toBe(431);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(await res.json()).toEqual({ error_v2: { error_code: 'REQUEST_7014', message: 'The request headers or URL are too large.' } });
      // The server still serves the next request.
      const next = await fetch(`${server.url}/v1/auth/nope`);
      expect(next.status).toBe(404);
    } finally {
      await server.close();
    }
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
        const contentType = pick(r, CONTENT_TYPES);
        const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
        if (call.idempotent && r() < 0.3) headers['Idempotency-Key'] = pick(r, ['k', ' ', 'x'.repeat(300), `fuzz-${i}`]);
        const res = await request(t.app, call.method, path + qs, { token, rawBody, headers });
        const shapeOk = res.status < 400 ? call.response.safeParse(res.body).success : errorV2Schema.safeParse(res.body).success;
        // A body in anything but JSON is refused, unless an earlier gate (routing, scopes, a throttle) refused first.
        const typeOk = !rawBody || contentType?.startsWith('application/json') || [415, 401, 403, 404, 405, 429].includes(res.status);
        if (res.status >= 500 || !shapeOk || !typeOk) failures.push(`${call.method} ${path}${qs} ${rawBody ?? ''} → ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    // ~25 requests for each of the catalogue's 300-odd calls: a budget for a shared 2-core runner, not a speed goal.
  }, 240_000);
});
