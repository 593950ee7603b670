import { beforeAll, describe, expect, it } from 'vitest';
import { billTemplateSchema, type BillTemplate } from '../../schema/api/calls-bill-extras.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';

/** Bill templates (issue 11): saved vendor + lines + memo; list, create, delete; 404 across businesses. */
const LIST = '/v1/auth/bill-pay/bill-templates';
const ONE = '/v1/auth/bill-pay/bill-template';

describe.each(await testDatabases())('bill templates on %s', (kind) => {
  const t = useTestApp(kind, { now: () => Date.parse('2026-11-20T12:00:00Z') });
  let a: Fixture;
  let admin: string;
  let bOwner: string;
  let vendor: string;
  let foreignVendor: string;

  const body = (over: Record<string, unknown> = {}) => ({
    name: 'Monthly cleaning', vendor_id: vendor, currency: 'USD', memo: 'Office cleaning',
    line_items: [{ description: 'Cleaning', amount: 40_000, gl_account_id: a.glAccounts.active[0] }, { description: 'Supplies', amount: 0 }], ...over,
  });

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    const b = await makeBusiness(t.db, { transactions: 0 });
    admin = await signIn(t.app, a.email('bookkeeper'));
    bOwner = await signIn(t.app, b.email('owner'));
    vendor = (await request(t.app, 'POST', '/v1/auth/vendors', { token: admin, body: { name: 'Cleaners' } })).body.id;
    foreignVendor = (await request(t.app, 'POST', '/v1/auth/vendors', { token: bOwner, body: { name: 'B cleaners' } })).body.id;
  });

  it('creates, lists and deletes a template', async () => {
    const res = await request(t.app, 'POST', LIST, { token: admin, body: body() });
    expect(res.status, res.text).toBe(201);
    const tpl = billTemplateSchema.parse(res.body);
    expect(tpl).toMatchObject({ name: 'Monthly cleaning', vendor_id: vendor, memo: 'Office cleaning', created_by: a.users.bookkeeper });
    expect(tpl.line_items.map((l) => l.amount)).toEqual([40_000, 0]);
    const list = await request(t.app, 'GET', LIST, { token: admin });
    expect(list.body.data.map((x: BillTemplate) => x.id)).toEqual([tpl.id]);
    expect((await request(t.app, 'GET', LIST, { token: bOwner })).body.data).toEqual([]);
    expect((await request(t.app, 'DELETE', `${ONE}/${tpl.id}`, { token: bOwner })).status).toBe(404);
    const del = await request(t.app, 'DELETE', `${ONE}/${tpl.id}`, { token: admin });
    expect(del.status, del.text).toBe(200);
    expect(del.body.deleted).toBe(true);
    expect((await request(t.app, 'GET', LIST, { token: admin })).body.data).toEqual([]);
    expect((await request(t.app, 'DELETE', `${ONE}/${tpl.id}`, { token: admin })).status).toBe(404);
  });

  it('refuses negative lines, foreign vendors and coding, and non-managers', async () => {
    const neg = await request(t.app, 'POST', LIST, { token: admin, body: body({ line_items: [{ description: 'x', amount: -1 }] }) });
    expect([neg.status, neg.body.error_v2.error_code]).toEqual([422, 'REQUEST_7001']);
    expect(neg.body.error_v2.errors).toHaveProperty(['line_items.0.amount']);
    expect((await request(t.app, 'POST', LIST, { token: admin, body: body({ vendor_id: foreignVendor }) })).status).toBe(404);
    expect((await request(t.app, 'POST', LIST, { token: admin, body: body({ line_items: [] }) })).status).toBe(422);
    expect((await request(t.app, 'POST', LIST, { token: admin, body: body({ extra: 1 }) })).status).toBe(422);
    const employee = await signIn(t.app, a.email('employee'));
    expect((await request(t.app, 'GET', LIST, { token: employee })).status).toBe(403);
  });
});
