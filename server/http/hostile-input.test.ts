/**
 * No input is a 500 (issue 24). Every catalogue call, signed in as an admin with a step-up token
 * (so sensitive calls reach their input too), gets a matrix of hostile requests: prototype keys at
 * every depth, 100,000-deep arrays and objects, huge key and item counts, numbers past float
 * range, lone surrogates, a BOM, NUL, wrong content types, empty and truncated bodies, duplicate
 * keys, giant strings, hostile query strings, and each of the call's own fields set to hostile
 * values. The answer is never 5xx, and every error is a valid error_v2 with a catalogue code.
 * Bodies with a prototype key or past the depth/size limits answer 400 REQUEST_7017 wherever the
 * call reads a JSON body. The SSO browser legs (raw routes) get the same treatment.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CATALOGUE } from '../../schema/api/calls.ts';
import type { CallDef } from '../../schema/api/define-call.ts';
import { errorV2Schema, isErrorCode } from '../../schema/errors.ts';
import type { LedgerlineApp } from '../app.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { FIXTURE_PASSWORD, makeBusiness, request, signIn } from '../test-fixtures.ts';
import { checkJsonShape, JSON_LIMITS, parseJsonBody } from './json-body.ts';

const UUID = '00000000-0000-4000-8000-000000000000';
const concretePath = (call: CallDef) => call.path.replace(/:([a-z_]+)/g, (_, name: string) => (name === 'token' ? 'a'.repeat(43) : UUID));

const deep = (n: number, open: string, close: string, inner = '1') => open.repeat(n) + inner + close.repeat(n);
const manyKeys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`;

type Case = { name: string; body: string | Uint8Array<ArrayBuffer>; type?: string | null; structural?: boolean };

/** Bodies that break the input contract's structure: 400 REQUEST_7017 on every call that reads JSON. */
const STRUCTURAL: Case[] = [
  { name: '__proto__ at the top', body: '{"__proto__":{"admin":true}}' },
  { name: '__proto__ nested', body: '{"patch":{"memo":"x","__proto__":{"x":1}}}' },
  { name: '__proto__ in an array item', body: '{"ids":[{"__proto__":null}]}' },
  { name: '__proto__ spelled with an escape', body: '{"__pro\\u0074o__":{}}' },
  { name: 'constructor', body: '{"constructor":{"prototype":{"x":1}}}' },
  { name: 'prototype deep', body: `{"a":${deep(40, '{"b":', '}', '{"prototype":1}')}}` },
  { name: 'arrays 100,000 deep', body: deep(100_000, '[', ']') },
  { name: 'objects 100,000 deep', body: deep(100_000, '{"a":', '}') },
  { name: 'objects 65 deep', body: deep(JSON_LIMITS.maxDepth + 1, '{"a":', '}') },
  { name: 'unbalanced 100,000 opens', body: '['.repeat(100_000) },
  { name: '5,000 keys', body: manyKeys(5_000) },
  { name: '150,000 items', body: `{"transaction_ids":[${Array(150_000).fill('0').join(',')}]}` },
].map((c) => ({ ...c, structural: true }));

const OTHER: Case[] = [
  { name: 'number past float range', body: '{"amount":1e400,"limit":-1e400,"x":1e-400}' },
  { name: 'huge integer', body: '{"amount":123456789012345678901234567890}' },
  { name: 'lone surrogate value', body: '{"memo":"\\ud800"}' },
  { name: 'lone surrogate key', body: '{"\\udfff":1}' },
  { name: 'raw lone surrogate bytes', body: Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]) },
  { name: 'not UTF-8', body: Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
  { name: 'BOM', body: '\uFEFF{"a":1}' },
  { name: 'escaped NUL', body: '{"memo":"a\\u0000b","name":"\\u0000"}' },
  { name: 'raw NUL', body: '{"memo":"a\u0000b"}' },
  { name: 'text/plain', body: '{"a":1}', type: 'text/plain' },
  { name: 'form', body: 'a=1&__proto__=x', type: 'application/x-www-form-urlencoded' },
  { name: 'multipart', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', type: 'multipart/form-data; boundary=x' },
  { name: 'no content type', body: '{"a":1}', type: null },
  { name: 'empty', body: '' },
  { name: 'whitespace', body: '   \n' },
  { name: 'truncated', body: '{"a":' },
  { name: 'null', body: 'null' },
  { name: 'array', body: '[]' },
  { name: 'string', body: '"x"' },
  { name: 'duplicate keys', body: '{"a":1,"a":2,"email":"a@b.test","email":"c@d.test"}' },
  { name: 'giant string', body: `{"memo":"${'x'.repeat(300_000)}"}` },
];
/** Past the 2 MB body limit (413): generic middleware, so a sample of calls gets it. */
const OVERSIZED: Case = { name: 'past the body limit', body: `{"memo":"${'x'.repeat(2_200_000)}"}` };

/** Values put into every field of a call's own body, one request per value. */
const HOSTILE_VALUES: string[] = [
  '1e400', '-123456789012345678901234567890', '"\\ud800"', '"a\\u0000b"', `"${'x'.repeat(100_000)}"`,
  '""', 'null', '{}', `[${Array(10_001).fill('"00000000-0000-4000-8000-000000000000"').join(',')}]`,
  deep(60, '{"a":', '}'), '"2026-02-30T25:61:00Z"',
];

/** The top-level field names of a body schema (through optional/default wrappers and unions). */
function fieldNames(schema: z.ZodType | null): string[] {
  let s: unknown = schema;
  for (let i = 0; i < 10 && s; i++) {
    if (s instanceof z.ZodObject) return Object.keys(s.shape);
    if (s instanceof z.ZodUnion) return [...new Set(s.options.flatMap((o) => fieldNames(o as z.ZodType)))];
    const def = (s as { _zod?: { def?: { innerType?: unknown; in?: unknown } } })._zod?.def;
    s = def?.innerType ?? def?.in;
  }
  return [];
}

/** Calls that get the whole matrix: one of each kind (public, JSON write, PATCH, DELETE with a body, upload, export, SSE, list). */
const SAMPLED = new Set(['auth.signUp', 'auth.signIn', 'transactions.bulkCode', 'transactions.patch', 'reimbursements.bulkDelete', 'admin.users.invite', 'receipts.upload', 'transactions.exportAsFile', 'sync.stream', 'transactions.list']);

const QUERIES = [
  '?limit=1&limit=2&a[]=1&a[]=2&__proto__[admin]=1', '?__proto__=x', '?constructor=x', '?limit=1e400&after=-1&cursor=%ZZ',
  `?q=%ED%A0%80&search=${'x'.repeat(8_000)}`, '?q=%00&sort=__proto__&&&=&=',
  // Keyset cursors are base64url JSON: a deep one, and one with a prototype key.
  `?start=${Buffer.from(deep(4_000, '[', ']')).toString('base64url')}&cursor=${Buffer.from('{"__proto__":{"s":"x"},"v":[]}').toString('base64url')}`,
];

/** Asserts the contract: never 5xx; an error is error_v2 with a catalogue code. */
function expectContract(label: string, res: { status: number; body: unknown; text: string }) {
  expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400) {
    const parsed = errorV2Schema.safeParse(res.body);
    expect(parsed.success, `${label}: not error_v2: ${res.text.slice(0, 300)}`).toBe(true);
    if (parsed.success) expect(isErrorCode(parsed.data.error_v2.error_code), `${label}: ${parsed.data.error_v2.error_code}`).toBe(true);
  }
}

async function send(app: LedgerlineApp, method: string, path: string, token: string | null, c: Case) {
  const headers: Record<string, string> = {};
  if (token) headers['RAMP-ID-TOKEN'] = token;
  const type = c.type === undefined ? 'application/json' : c.type;
  if (type) headers['content-type'] = type;
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const res = await app.request(path, { method, headers, body: hasBody ? c.body : undefined });
  // The change stream never ends by itself: its answer is the status and headers.
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, body: null, text: '' };
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the contract check reports it
  }
  return { status: res.status, body, text };
}

describe('json body limits', () => {
  it('checks shape in one pass without recursion, ignoring brackets and commas inside strings', () => {
    expect(() => checkJsonShape(deep(64, '[', ']'))).not.toThrow();
    expect(() => checkJsonShape(deep(65, '[', ']'))).toThrow(/at most 64 levels/);
    expect(() => checkJsonShape(`{"a":"${'['.repeat(1000)},,,"}`)).not.toThrow();
    expect(() => checkJsonShape(`["\\"${'['.repeat(100)}"]`)).not.toThrow();
    expect(() => checkJsonShape(manyKeys(JSON_LIMITS.maxKeys))).not.toThrow();
    expect(() => checkJsonShape(manyKeys(JSON_LIMITS.maxKeys + 1))).toThrow(/too many keys/);
    expect(() => parseJsonBody('{"a":[{"b":{"constructor":1}}]}', () => new Error('bad'))).toThrow(/a\.0\.b\.constructor/);
    expect(parseJsonBody('{"a":[1,{"b":"constructor"}]}', () => new Error('bad'))).toEqual({ a: [1, { b: 'constructor' }] });
  });
});

describe.each(await testDatabases())('hostile input on %s', (kind) => {
  const t = useTestApp(kind);

  it('answers every catalogue call without a 5xx, with error_v2 and catalogue codes; structure refusals are 400', { timeout: 120_000 }, async () => {
    // A call may end the admin's session or change their sign-in: each fresh token comes from a fresh business.
    const freshToken = async () => {
      const f = await makeBusiness(t.db, { transactions: 3 });
      const token = await signIn(t.app, f.email('admin'));
      const up = await request<{ id_token: string }>(t.app, 'POST', '/v1/auth/users/current/step-up', { token, body: { password: FIXTURE_PASSWORD } });
      expect(up.status, up.text).toBe(200);
      return up.body.id_token;
    };
    let token = await freshToken();
    let requests = 0;
    const byCall = new Map<string, number>();
    const hostileFields = (call: CallDef, shift: number): Case | null => {
      const fields = fieldNames(call.body);
      if (!fields.length) return null;
      // Each field a different hostile value; the next call starts one value further on.
      const pairs = fields.map((k, i) => `${JSON.stringify(k)}:${HOSTILE_VALUES[(i + shift) % HOSTILE_VALUES.length]!}`);
      return { name: `fields hostile (shift ${shift})`, body: `{${pairs.join(',')}}` };
    };
    for (const [index, call] of CATALOGUE.entries()) {
      const path = concretePath(call);
      const auth = call.auth.kind === 'public' ? null : token;
      const full = SAMPLED.has(call.id);
      // Every call: a prototype key, 100,000-deep nesting, its own fields set to hostile values
      // (one rotation: field i gets value i + index, so across the catalogue every value meets
      // every kind of field), and two other cases in rotation; the sampled calls (one of each
      // kind of call) get every case and every hostile value in every field.
      const rotate = <T,>(list: readonly T[], n: number) => Array.from({ length: n }, (_, k) => list[(index * n + k) % list.length]!);
      const cases: Case[] = call.method === 'GET' ? [] : full ? [...STRUCTURAL, ...OTHER, OVERSIZED] : [
        STRUCTURAL[index % 6]!, STRUCTURAL[6 + (index % 2)]!, ...rotate(STRUCTURAL.slice(8), 1), ...rotate(OTHER, 2),
      ];
      if (call.method !== 'GET') {
        for (const shift of full ? HOSTILE_VALUES.map((_, i) => i) : [index]) {
          const c = hostileFields(call, shift);
          if (c) cases.push(c);
        }
      }
      const queries = full ? QUERIES : ['?__proto__=x', ...rotate(QUERIES.filter((q) => q !== '?__proto__=x'), 1)];
      const answers = [];
      for (const c of cases) answers.push({ c, res: await send(t.app, call.method, path, auth, c) });
      const queried = [];
      for (const q of queries) queried.push({ q, res: await send(t.app, call.method, path + q, auth, { name: q, body: '' }) });
      requests += answers.length + queried.length;
      byCall.set(call.id, answers.length + queried.length);
      for (const { c, res } of answers) {
        expectContract(`${call.id} ${c.name}`, res);
        // Where the call reads a JSON body, a structural refusal comes before validation.
        // (Authentication and the scope gate answer first: 401/403 there say nothing about the body.)
        if (c.structural && call.body && !call.upload && res.status !== 401 && res.status !== 403) {
          expect([res.status, (res.body as { error_v2?: { error_code?: string } }).error_v2?.error_code], `${call.id} ${c.name}`).toEqual([400, 'REQUEST_7017']);
        }
      }
      for (const { q, res } of queried) {
        expectContract(`${call.id} ${q}`, res);
        if ((q === '?__proto__=x' || q === '?constructor=x') && ![401, 403, 404, 415].includes(res.status)) {
          expect([res.status, (res.body as { error_v2?: { error_code?: string } }).error_v2?.error_code], `${call.id} ${q}`).toEqual([400, 'REQUEST_7017']);
        }
      }
      // A call that ended the session (sign out everywhere) or an expired step-up: sign in again.
      if ([...answers, ...queried].some(({ res }) => res.status === 401) && call.auth.kind !== 'public') token = await freshToken();
    }
    // Every call was reached; the sampled ones (all in the catalogue) with the whole matrix.
    expect(byCall.size).toBe(CATALOGUE.length);
    for (const id of SAMPLED) expect(byCall.get(id), id).toBeGreaterThanOrEqual(QUERIES.length);
    expect(requests).toBeGreaterThan(CATALOGUE.length * 4);
  });

  it('gives the SSO browser legs (form posts and redirects, not JSON) the same contract', async () => {
    const routes = [
      ['POST', `/v1/public/sso/saml/${UUID}/acs`],
      ['POST', '/v1/public/sso/saml/not-a-uuid/acs'],
      ['GET', `/v1/public/sso/saml/${UUID}/metadata`],
      ['GET', '/v1/public/sso/oidc/callback'],
    ] as const;
    for (const [method, path] of routes) {
      for (const c of method === 'GET' ? [{ name: 'no body', body: '' }] : [...STRUCTURAL, ...OTHER]) {
        const res = await send(t.app, method, path, null, c);
        // A browser leg answers a redirect (302) or an error_v2; never 5xx.
        expectContract(`${method} ${path} ${c.name}`, res);
      }
      for (const q of [...QUERIES, '?state=%ED%A0%80&code=x', '?SAMLResponse=%%%', '?error=access_denied&error_description=%00']) {
        expectContract(`${method} ${path}${q}`, await send(t.app, method, path + q, null, { name: q, body: '' }));
      }
    }
  });
});
