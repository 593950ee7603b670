import { businessEntityRowSchema } from '../../schema/entities/business-entity.ts';
import { walletAccountSchema } from '../../schema/entities/wallet-account.ts';
import { walletTransferSchema } from '../../schema/entities/wallet-transfer.ts';
import { bankAccountSchema } from '../../schema/entities/bank-account.ts';
import type { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { syncChanges } from '../../schema/api/calls.ts';
import { approvalSchema } from '../../schema/entities/approval.ts';
import { billSchema } from '../../schema/entities/bill.ts';
import { cardSchema } from '../../schema/entities/card.ts';
import { departmentSchema } from '../../schema/entities/department.ts';
import { glAccountSchema } from '../../schema/entities/gl-account.ts';
import { locationSchema } from '../../schema/entities/location.ts';
import { reimbursementSchema } from '../../schema/entities/reimbursement.ts';
import { reimbursementRateSchema } from '../../schema/entities/reimbursement-rate.ts';
import { userRowSchema } from '../../schema/entities/spend-user.ts';
import { trackingCategorySchema } from '../../schema/entities/tracking-category.ts';
import { transactionSchema } from '../../schema/entities/transaction.ts';
import { vendorSchema } from '../../schema/entities/vendor.ts';
import { provisionalBillSchema } from '../../schema/entities/provisional-bill.ts';
import { savedReportSchema } from '../../schema/entities/saved-report.ts';
import { dashboardSchema } from '../../schema/entities/dashboard.ts';
import type { Change, MirroredCollection } from '../../schema/sync-feed.ts';
import { cardRequestSchema } from '../../schema/entities/card-request.ts';
import { mappingRuleRowSchema } from '../../schema/entities/mapping-rule.ts';
import { tripSchema } from '../../schema/entities/trip.ts';
import { spendRequestSchema } from '../../schema/entities/spend-request.ts';
import { notificationSchema } from '../../schema/entities/notification.ts';
import { purchaseOrderSchema } from '../../schema/entities/purchase-order.ts';
import { spendAllocationSchema } from '../../schema/entities/spend-allocation.ts';
import { expensePolicySchema } from '../../schema/entities/expense-policy.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, sseReader, type Fixture, type FixtureRole } from '../test-fixtures.ts';

const DOC_SCHEMAS: Record<MirroredCollection, z.ZodType> = {
  transactions: transactionSchema.strict(),
  users: userRowSchema.strict(),
  departments: departmentSchema.strict(),
  locations: locationSchema.strict(),
  gl_accounts: glAccountSchema.strict(),
  tracking_categories: trackingCategorySchema.strict(),
  cards: cardSchema.strict(),
  card_requests: cardRequestSchema.strict(),
  reimbursements: reimbursementSchema.strict(),
  approvals: approvalSchema.strict(),
  reimbursement_rates: reimbursementRateSchema.strict(),
  vendors: vendorSchema.strict(),
  bills: billSchema.strict(),
  provisional_bills: provisionalBillSchema.strict(),
  saved_reports: savedReportSchema.strict(),
  dashboards: dashboardSchema.strict(),
  mapping_rules: mappingRuleRowSchema.strict(),
  entities: businessEntityRowSchema.strict(),
  trips: tripSchema.strict(),
  spend_requests: spendRequestSchema.strict(),
  purchase_orders: purchaseOrderSchema.strict(),
  spend_allocations: spendAllocationSchema.strict(),
  expense_policies: expensePolicySchema.strict(),
  notifications: notificationSchema.strict(),
  wallet_accounts: walletAccountSchema.strict(),
  wallet_transfers: walletTransferSchema.strict(),
  bank_accounts: bankAccountSchema.strict(),
};

type Pull = { changes: Change[]; epoch: string; total: number | undefined; checkpoint: number };
async function pullAll(app: Hono, token: string, after = 0, limit = 7): Promise<Pull> {
  const changes: Change[] = [];
  let checkpoint = after;
  let epoch = '';
  let total: number | undefined;
  for (;;) {
    const res = await request(app, 'GET', `/v1/auth/sync/changes?after=${checkpoint}&limit=${limit}`, { token });
    expect(res.status).toBe(200);
    const page = syncChanges.response.parse(res.body);
    if (checkpoint === 0) total = page.total;
    changes.push(...page.changes);
    expect(page.checkpoint).toBeGreaterThanOrEqual(checkpoint);
    checkpoint = page.checkpoint;
    epoch = page.visibility_epoch;
    if (!page.has_more) return { changes, epoch, total, checkpoint };
  }
}

const idsOf = (changes: Change[], collection: MirroredCollection) =>
  changes.filter((c) => c.collection === collection).map((c) => c.id).sort();

describe.each(await testDatabases())('change feed on %s', (kind) => {
  const t = useTestApp(kind, { heartbeatMs: 25 });

  it('gives an admin every row in seq order, in entity shapes, with totals and checkpoints', async () => {
    const f = await makeBusiness(t.db, { transactions: 30 });
    const token = await signIn(t.app, f.email('admin'));
    const { changes, total, checkpoint } = await pullAll(t.app, token);
    const seqs = changes.map((c) => c.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(total).toBe(changes.length);
    expect(idsOf(changes, 'transactions')).toEqual([...f.allTransactions].sort());
    expect(idsOf(changes, 'users')).toEqual(Object.values(f.users).sort());
    for (const c of changes) DOC_SCHEMAS[c.collection].parse(c.doc);
    const [{ change_seq }] = (await t.db.query<{ change_seq: number }>('SELECT change_seq FROM businesses WHERE id = $1', [f.businessId])) as [{ change_seq: number }];
    expect(checkpoint).toBe(change_seq);

    // Only what changed after the checkpoint comes next.
    await request(t.app, 'PATCH', `/v1/auth/transactions/${f.allTransactions[5]}`, { token, body: { memo: 'New' } });
    const next = await pullAll(t.app, token, checkpoint);
    expect(next.changes.map((c) => [c.collection, c.id, c.doc?.memo])).toEqual([['transactions', f.allTransactions[5], 'New']]);
  });

  it.each([
    ['admin', ['manager', 'employee', 'teammate', 'outsider', 'admin'], 8],
    ['manager', ['manager', 'employee', 'teammate'], 3],
    ['employee', ['employee'], 1],
  ] as [FixtureRole, FixtureRole[], number][])('filters %s to visible transactions and cards', async (role, holders, cardCount) => {
    const f: Fixture = await makeBusiness(t.db, { transactions: 25 });
    const { changes } = await pullAll(t.app, await signIn(t.app, f.email(role)), 0, 500);
    expect(idsOf(changes, 'transactions')).toEqual(holders.flatMap((h) => f.transactions[h]).sort());
    expect(idsOf(changes, 'cards')).toHaveLength(cardCount);
    expect(idsOf(changes, 'departments')).toHaveLength(3);
  });

  it('changes the visibility epoch when the team changes', async () => {
    const f = await makeBusiness(t.db, { transactions: 5 });
    const token = await signIn(t.app, f.email('manager'));
    const before = (await pullAll(t.app, token)).epoch;
    expect((await pullAll(t.app, token)).epoch).toBe(before);
    await t.db.query('UPDATE spend_users SET manager_id = $1 WHERE id = $2', [f.users.manager, f.users.outsider]);
    const after = await pullAll(t.app, token);
    expect(after.epoch).not.toBe(before);
    expect(idsOf(after.changes, 'transactions')).toContain(f.transactions.outsider[0]);
  });

  it('streams the high water first, then a seq after every write, with heartbeats', async () => {
    const f = await makeBusiness(t.db, { transactions: 5 });
    const token = await signIn(t.app, f.email('employee'));
    const admin = await signIn(t.app, f.email('admin'));
    const res = await t.app.request('/v1/auth/sync/stream', { headers: { 'RAMP-ID-TOKEN': token } });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const [{ change_seq: high }] = (await t.db.query<{ change_seq: number }>('SELECT change_seq FROM businesses WHERE id = $1', [f.businessId])) as [{ change_seq: number }];
    const sse = sseReader(res);
    await sse.until(() => sse.seqs().length >= 1);
    expect(sse.seqs()).toEqual([high]);
    const patched = await request(t.app, 'PATCH', `/v1/auth/transactions/${f.allTransactions[0]}`, { token: admin, body: { memo: 'ping' } });
    await sse.until(() => sse.seqs().length >= 2 && sse.text().includes(': heartbeat'));
    expect(sse.seqs()).toEqual([high, patched.body.change_seq]);
    await sse.cancel();
  });

  it('refuses a stream without a token', async () => {
    const res = await request(t.app, 'GET', '/v1/auth/sync/stream');
    expect(res.status).toBe(401);
  });
});

