/**
 * Issue 32, event history per entity (§7): completeness — for every entity type a write through
 * the catalogue names its person and device, a write marked with a source (SCIM, an API client)
 * names the source, a write outside a request says System — and the read's rules: the entity's
 * own visibility (another business's id, or one the caller may not see, is 404), names for ids,
 * newest first, paged.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { entityHistorySchema, type EntityHistory, type EventEntityType } from '../../../schema/event-history.ts';
import { applyActing } from '../../http/acting.ts';
import { insertClaim } from '../../routes/expense-policies-test-kit.ts';
import { insertBill } from '../../routes/vendor-network-test-kit.ts';
import { useTestApp } from '../../test-app.ts';
import { testDatabases } from '../../test-db.ts';
import { makeBusiness, makeVendor, refusal, request, signIn, type Fixture } from '../../test-fixtures.ts';

const HISTORY = '/v1/auth/event-history';
const DEVICE = '0b5f3c52-4f6e-4a39-9d1e-0d6a4c5f2e11';

describe.each(await testDatabases())('event history on %s', (kind) => {
  const t = useTestApp(kind);
  let a: Fixture;
  let b: Fixture;
  let admin: string;
  let employee: string;
  let outsider: string;
  let vendorId: string;
  let billId: string;
  let claimId: string;
  const name = (f: Fixture, role: string) => `${role[0]!.toUpperCase()}${role.slice(1)} Fixture${f.businessId.slice(0, 8)}`;

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 10 });
    b = await makeBusiness(t.db, { transactions: 0 });
    admin = await signIn(t.app, a.email('admin'));
    employee = await signIn(t.app, a.email('employee'));
    outsider = await signIn(t.app, a.email('outsider'));
    vendorId = await makeVendor(t.app, admin, 'Acme Paper');
    billId = (await insertBill(t.db, a.businessId, vendorId, a.users.admin, { status: 'DRAFT', due: '2026-02-01' })).billId;
    await t.db.query("INSERT INTO bill_line_items (id, bill_id, position, description, amount) VALUES ($1, $2, 0, 'Paper', 4200)", [randomUUID(), billId]);
    claimId = await insertClaim(t.db, a, 'employee', { amount: 1234, date: '2026-01-05', memo: null });
  });

  const history = async (type: EventEntityType, id: string, token = admin, query = '') => {
    const res = await request(t.app, 'GET', `${HISTORY}/${type}/${id}${query}`, { token });
    expect(res.status, res.text).toBe(200);
    return entityHistorySchema.parse(res.body);
  };
  const write = async (token: string, method: string, path: string, body: unknown) => {
    const res = await request(t.app, method, path, { token, body, headers: { 'X-Ledgerline-Device': DEVICE } });
    expect(res.status, res.text).toBeLessThan(300);
  };

  it('names the person and device of a write through the catalogue, for every entity type', async () => {
    const tx = a.transactions.employee[0]!;
    const writes: [EventEntityType, string, string, string, unknown, string, unknown][] = [
      ['transaction', tx, employee, `/v1/auth/transactions/${tx}`, { memo: 'Client dinner' }, 'memo', 'Client dinner'],
      ['reimbursement', claimId, employee, `/v1/auth/reimbursements/${claimId}`, { memo: 'Printer paper' }, 'memo', 'Printer paper'],
      ['bill', billId, admin, `/v1/auth/bill-pay/${billId}`, { memo: 'Q1 paper' }, 'memo', 'Q1 paper'],
      ['card', a.cards.employee, admin, `/v1/auth/cards/${a.cards.employee}`, { display_name: 'Travel card' }, 'display_name', 'Travel card'],
      ['vendor', vendorId, admin, `/v1/auth/vendors/${vendorId}`, { name: 'Acme Paper Co' }, 'name', 'Acme Paper Co'],
      ['user', a.users.employee, admin, `/v1/auth/businesses/users/${a.users.employee}`, { department_id: a.departments[1] }, 'department_id', a.departments[1]],
    ];
    for (const [type, id, token, path, body, field, to] of writes) {
      await write(token, 'PATCH', path, body);
      const h = await history(type, id);
      const writer = token === admin ? 'admin' : 'employee';
      expect(h.data[0], type).toMatchObject({ field, to, actor: { kind: 'user', user_id: a.users[writer], label: name(a, writer) }, device_id: DEVICE });
    }
    // Ids read as names; the claim's currency comes with its history.
    expect((await history('user', a.users.employee)).data[0]).toMatchObject({ from_label: 'Engineering', to_label: 'Sales' });
    expect((await history('reimbursement', claimId)).currency).toBe('USD');
  });

  it('names the source of an integration\'s write, and says System for a write outside any request', async () => {
    const scim = { kind: 'scim' as const, id: randomUUID(), label: 'SCIM Okta' };
    await t.db.transaction(async (tx) => {
      await applyActing(tx, { userId: null, device: null, source: scim });
      await tx.query('UPDATE spend_users SET location_id = $2 WHERE id = $1', [a.users.teammate, a.locations[1]]);
    });
    await t.db.transaction(async (tx) => {
      await applyActing(tx, { userId: a.users.admin, device: null, source: { kind: 'api_client', id: randomUUID(), label: 'API client Ledger Sync' } });
      await tx.query("UPDATE vendors SET email = 'ap@acme.test' WHERE id = $1", [vendorId]);
    });
    await t.db.query("UPDATE cards SET status = 'LOCKED' WHERE id = $1", [a.cards.teammate]);

    expect((await history('user', a.users.teammate)).data[0]).toMatchObject({
      field: 'location_id', to_label: 'Berlin', actor: { kind: 'scim', user_id: null, label: 'SCIM Okta' }, device_id: null,
    });
    expect((await history('vendor', vendorId)).data[0]).toMatchObject({
      field: 'email', from: null, to: 'ap@acme.test', actor: { kind: 'api_client', user_id: a.users.admin, label: `API client Ledger Sync (for ${name(a, 'admin')})` },
    });
    expect((await history('card', a.cards.teammate)).data[0]).toMatchObject({ field: 'status', from: 'ACTIVE', to: 'LOCKED', actor: { kind: 'system', label: 'System' } });
  });

  it('shows an entity\'s history to those who may see it, newest first and paged', async () => {
    const tx = a.transactions.employee[1]!;
    for (const memo of ['one', 'two', 'three']) await write(employee, 'PATCH', `/v1/auth/transactions/${tx}`, { memo });
    const first: EntityHistory = await history('transaction', tx, employee, '?page_size=2');
    expect(first.data.map((e) => e.to)).toEqual(['three', 'two']);
    expect(first.page.next).not.toBeNull();
    const rest = await history('transaction', tx, employee, `?page_size=2&start=${first.page.next}`);
    // The oldest event is the transaction's creation (migration 080): the fixture's insert, by nobody = the system.
    expect([rest.data.map((e) => [e.field, e.from, e.to, e.actor.label]), rest.page.next]).toEqual([[['memo', null, 'one', name(a, 'employee')], ['created', null, null, 'System']], null]);
    // The manager sees their report's; another employee and another business do not.
    await history('transaction', tx, await signIn(t.app, a.email('manager')));
    expect(refusal(await request(t.app, 'GET', `${HISTORY}/transaction/${tx}`, { token: outsider }))).toEqual([404, 'REQUEST_7004']);
    const bOwner = await signIn(t.app, b.email('owner'));
    expect(refusal(await request(t.app, 'GET', `${HISTORY}/transaction/${tx}`, { token: bOwner }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'GET', `${HISTORY}/card/${a.cards.employee}`, { token: bOwner }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'GET', `${HISTORY}/invoice/${tx}`, { token: admin }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await request(t.app, 'GET', `${HISTORY}/transaction/not-a-uuid`, { token: admin }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await request(t.app, 'GET', `${HISTORY}/transaction/${tx}?start=abc`, { token: admin }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await request(t.app, 'GET', `${HISTORY}/transaction/${tx}?page_size=500`, { token: admin }))).toEqual([422, 'REQUEST_7001']);
  });
});
