import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { VENDOR_NETWORK_CALLS } from '../../schema/api/calls-vendor-network.ts';
import { ERROR_CATALOGUE } from '../../schema/errors.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, makeVendor, request, signIn } from '../test-fixtures.ts';
import { acceptNew, invite, portalToken } from './vendor-network-test-kit.ts';

/**
 * The catalogue-wide hostile-input walk (http/hostile-input.test.ts) calls as a business admin, so
 * the portal's calls stop at the surface gate there. This walks every vendor network call with a
 * portal token carrying every step-up scope (and the payer's calls with the admin's), with bad
 * params, queries and each body field set to hostile values: never a 5xx, every refusal an error_v2
 * with a catalogue code.
 */
const HOSTILE: unknown[] = [null, 12345, -1, true, 'x'.repeat(5000), { a: 1 }, [1, 2], '\u0000<script>', '9'.repeat(40)];

function pathOf(path: string, bad: boolean): string {
  return path.replace(/:([a-z_]+)/g, (_, name: string) => (bad ? (name === 'token' ? '%00' : 'not-a-uuid') : name === 'token' ? 'a'.repeat(43) : randomUUID()));
}

function bodies(schema: z.ZodType | null): unknown[] {
  if (!schema) return [undefined];
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  const out: unknown[] = [{}, [], 'text', { unknown_field: 1 }];
  for (const field of Object.keys(shape)) for (const v of HOSTILE) out.push({ [field]: v });
  return out;
}

describe.each(await testDatabases())('vendor network hostile inputs on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });
  let portal: string;
  let admin: string;

  beforeAll(async () => {
    const a = await makeBusiness(t.db, { transactions: 0 });
    admin = await signIn(t.app, a.email('admin'));
    const vendorId = await makeVendor(t.app, admin, 'Hostile vendor');
    const joined = await acceptNew(t.app, t.db, await invite(t.app, t.db, admin, vendorId, `${randomUUID().slice(0, 8)}@hostile.test`));
    portal = await portalToken(t.app, t.db, joined.identityId, joined.networkVendorId, ['sensitive', 'email-otp']);
  });

  it.each(VENDOR_NETWORK_CALLS.map((c) => [c.id, c] as const))('%s: never a 5xx, refusals in the catalogue', async (_, call) => {
    const token = call.surfaces.includes('VENDOR_PORTAL') ? portal : admin;
    const tries: { path: string; body: unknown; headers?: Record<string, string> }[] = [];
    const query = call.query ? '?kind=ZZZ&page_size=-5&start=%25%25&status=nope&business_id=x' : '';
    for (const bad of [false, true]) tries.push({ path: pathOf(call.path, bad) + query, body: undefined });
    if (call.upload) {
      tries.push({ path: `${pathOf(call.path, false)}?kind=W9`, body: undefined, headers: { 'content-type': 'application/pdf' } });
      tries.push({ path: `${pathOf(call.path, false)}?kind=W9`, body: undefined, headers: { 'content-type': 'text/html' } });
    } else {
      for (const body of bodies(call.body)) tries.push({ path: pathOf(call.path, false), body });
    }
    for (const x of tries) {
      const res = await request(t.app, call.method, x.path, {
        token, ...(x.body !== undefined && { body: x.body }), ...(x.headers && { headers: x.headers, rawBody: '<html>' }),
      });
      expect(res.status, `${call.id} ${x.path} ${JSON.stringify(x.body)?.slice(0, 80)}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      if (res.status >= 400) expect(Object.keys(ERROR_CATALOGUE)).toContain(res.body.error_v2?.error_code);
    }
  });
});
