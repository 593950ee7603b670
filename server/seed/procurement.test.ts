import { beforeAll, describe, expect, it } from 'vitest';
import { syncChanges } from '../../schema/api/calls.ts';
import { payBillsNow } from '../../schema/api/calls-bills.ts';
import { billSchema } from '../../schema/entities/bill.ts';
import { purchaseOrderSchema } from '../../schema/entities/purchase-order.ts';
import { spendAllocationSchema } from '../../schema/entities/spend-allocation.ts';
import { spendRequestSchema } from '../../schema/entities/spend-request.ts';
import { hashPassword } from '../auth/password.ts';
import { useTestApp } from '../test-app.ts';
import { testDatabases } from '../test-db.ts';
import { request, signIn } from '../test-fixtures.ts';
import { seedDemo } from './seed.ts';
import { DEMO_PASSWORD } from './types.ts';

/**
 * Issue 28's demo data as each account's mirror receives it: the seed (seed/procurement.ts) through
 * the real feed and routes. The manager's feed carries the employee's request waiting for them and
 * its approval; the AP clerk's carries both POs and the bill whose stored match is MISMATCHED, and
 * paying it is refused (PROCUREMENT_7013) while the matched one's PO is fully received.
 */
const NOW = new Date('2026-11-21T00:00:00.000Z');
const fastHash = (password: string) => hashPassword(password, { N: 1024, r: 8, p: 1 });
type Change = { collection: string; id: string; doc: Record<string, unknown> };

describe.each(await testDatabases())('the seeded procurement demo on %s', (kind) => {
  const t = useTestApp(kind, { now: () => NOW.getTime() + 9 * 3_600_000 });
  const tokens: Record<string, string> = {};
  const feeds: Record<string, Change[]> = {};
  const ids: Record<string, string> = {};

  /** Every change the account's first pull receives, page after page. */
  async function feedOf(token: string): Promise<Change[]> {
    const all: Change[] = [];
    let after = 0;
    for (let page = 0; page < 50; page++) {
      const res = await request(t.app, 'GET', `${syncChanges.path}?after=${after}&limit=500`, { token });
      expect(res.status, res.text).toBe(200);
      all.push(...(res.body.changes as Change[]));
      if (!res.body.has_more) return all;
      after = res.body.checkpoint;
    }
    throw new Error('the feed did not end');
  }
  const inFeed = (who: string, collection: string) => feeds[who]!.filter((c) => c.collection === collection).map((c) => c.doc);

  beforeAll(async () => {
    await seedDemo(t.db, { transactions: 60, bills: 12, now: NOW, hashPassword: fastHash });
    for (const who of ['employee', 'manager', 'apclerk', 'admin']) {
      tokens[who] = await signIn(t.app, `${who}@demo.test`, DEMO_PASSWORD);
      feeds[who] = await feedOf(tokens[who]!);
    }
    for (const who of ['employee', 'manager', 'apclerk']) {
      const [row] = await t.db.query<{ id: string }>('SELECT id::text FROM spend_users WHERE email = $1', [`${who}@demo.test`]);
      ids[who] = row!.id;
    }
  }, 120_000);

  it("puts the employee's pending request and its approval in the manager's feed, the approval naming the manager", () => {
    const pending = inFeed('manager', 'spend_requests').map((d) => spendRequestSchema.parse(d)).filter((r) => r.status === 'PENDING_APPROVAL');
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ user_id: ids.employee, type: 'GENERAL_EXPENSE', description: 'Ticket and hotel for ROSCon in Austin' });
    const approval = inFeed('manager', 'approvals').find((a) => a.id === pending[0]!.approval_id);
    expect(approval).toMatchObject({ object_type: 'spend_request', object_id: pending[0]!.id, status: 'PENDING', approver_id: ids.manager });
  });

  it("gives the employee their requests (pending, fulfilled into a card, a product request) and the budget with its card", () => {
    const mine = inFeed('employee', 'spend_requests').map((d) => spendRequestSchema.parse(d));
    expect(mine.map((r) => `${r.type} ${r.status}`).sort()).toEqual([
      'GENERAL_EXPENSE FULFILLED', 'GENERAL_EXPENSE PENDING_APPROVAL', 'PRODUCT_OR_SERVICE FULFILLED',
    ]);
    const fulfilled = mine.find((r) => r.type === 'GENERAL_EXPENSE' && r.status === 'FULFILLED')!;
    expect(inFeed('employee', 'cards').find((c) => c.id === fulfilled.card_id)).toMatchObject({ user_id: ids.employee, spend_request_id: fulfilled.id });
    const [budget] = inFeed('employee', 'spend_allocations').map((d) => spendAllocationSchema.parse(d));
    expect(budget).toMatchObject({ name: 'Engineering team events', owner_id: ids.manager, member_ids: [ids.employee], spent: 0, left: 300_000 });
    expect(budget!.card_ids).toHaveLength(1);
    expect(inFeed('employee', 'cards').find((c) => c.id === budget!.card_ids[0])).toMatchObject({ user_id: ids.employee, spend_allocation_id: budget!.id });
  });

  it('gives the AP clerk both POs (one partly received, one received) and their bills, the first MISMATCHED and refused payment', async () => {
    const pos = inFeed('apclerk', 'purchase_orders').map((d) => purchaseOrderSchema.parse(d)).sort((a, b) => a.po_number.localeCompare(b.po_number));
    expect(pos.map((p) => [p.po_number, p.status, p.bill_ids.length])).toEqual([['PO-000001', 'PARTIALLY_RECEIVED', 1], ['PO-000002', 'RECEIVED', 1]]);
    expect(pos[0]!.lines.map((l) => [l.quantity, l.received_quantity, l.billed_quantity])).toEqual([[10, 6, 10], [4, 0, 4]]);
    const bills = inFeed('apclerk', 'bills').map((d) => billSchema.parse(d));
    const mismatched = bills.find((b) => b.id === pos[0]!.bill_ids[0])!;
    const matched = bills.find((b) => b.id === pos[1]!.bill_ids[0])!;
    expect([mismatched.status, mismatched.po_match?.status]).toEqual(['APPROVED', 'MISMATCHED']);
    expect([matched.status, matched.po_match?.status]).toEqual(['APPROVED', 'MATCHED']);

    const paid = await request(t.app, 'POST', payBillsNow.path, { token: tokens.admin, body: { bill_ids: [mismatched.id] } });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.results[0]).toMatchObject({ ok: false, error_v2: { error_code: 'PROCUREMENT_7013' } });
  });

  it('seeds no purchase order or PO bill without an accounts-payable history (--bills 0), the budget and requests all the same', async () => {
    const other = await seedDemo(t.db, { transactions: 10, now: NOW, emailDomain: 'no-bills.test', hashPassword: fastHash });
    const n = async (sql: string) => Number((await t.db.query<{ n: number }>(sql, [other.businessId]))[0]!.n);
    expect(other.counts).toMatchObject({ spendAllocations: 1, spendRequests: 2, purchaseOrders: 0, bills: 0 });
    expect(await n('SELECT count(*)::int AS n FROM purchase_orders WHERE business_id = $1')).toBe(0);
    expect(await n('SELECT count(*)::int AS n FROM bills WHERE business_id = $1')).toBe(0);
    expect(await n("SELECT count(*)::int AS n FROM spend_requests WHERE business_id = $1 AND status = 'PENDING_APPROVAL'")).toBe(1);
  });

  it("keeps the POs out of the feed of someone who neither manages bills nor asked for them", () => {
    expect(inFeed('manager', 'purchase_orders').map((d) => d.po_number)).toEqual(['PO-000002']);
    expect(inFeed('employee', 'purchase_orders').map((d) => d.po_number)).toEqual(['PO-000001']);
  });
});
