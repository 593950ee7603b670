import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { syncChanges } from '../../schema/api/calls.ts';
import { billCreate } from '../../schema/commands/bill.ts';
import { billSchema, type Bill } from '../../schema/entities/bill.ts';
import type { Change } from '../../schema/sync-feed.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { type Fixture, type FixtureRole, makeBusiness, makeVendor, request, signIn } from '../test-fixtures.ts';

/**
 * Bills in the change feed (issue 11), visibility `bill_pay`: every bill to who manages bill pay
 * (admin, AP clerk with AP_ACCESS, bookkeeper), else the bills one created or is named approver
 * of on an approvals row; never another business's. The forward feed and the first mirror's
 * backfill walk agree. Creates under a client id answer a repeat with the stored bill.
 */
const BILLS = '/v1/auth/bill-pay';

async function forward(app: Hono, token: string): Promise<{ changes: Change[]; epoch: string }> {
  const changes: Change[] = [];
  let epoch = '';
  for (let after = 0; ;) {
    const res = await request(app, 'GET', `/v1/auth/sync/changes?after=${after}&limit=50`, { token });
    expect(res.status, res.text).toBe(200);
    const page = syncChanges.response.parse(res.body);
    changes.push(...page.changes);
    epoch = page.visibility_epoch;
    if (!page.has_more) return { changes, epoch };
    after = page.checkpoint;
  }
}

async function backfill(app: Hono, token: string): Promise<Change[]> {
  const changes: Change[] = [];
  let cursor = '';
  for (;;) {
    const res = await request(app, 'GET', `/v1/auth/sync/changes?backfill=true&limit=50${cursor}`, { token });
    expect(res.status, res.text).toBe(200);
    const page = syncChanges.response.parse(res.body);
    changes.push(...page.changes);
    if (!page.has_more) return changes;
    const b = page.backfill!;
    cursor = `&top=${b.top}&stage=${b.stage}&before=${b.before}`;
  }
}

const billIds = (changes: Change[]) => changes.filter((c) => c.collection === 'bills').map((c) => c.id).sort();

describe.each(await testDatabases())('bills in the change feed on %s', (kind) => {
  const NOW = Date.parse('2026-11-20T12:00:00Z');
  const t = useTestApp(kind, { now: () => NOW });
  let a: Fixture;
  let b: Fixture;
  const tokens = {} as Record<FixtureRole | 'clerk' | 'bAdmin', string>;
  let aBills: Bill[] = [];
  let bBill: Bill;

  const createBill = async (token: string, vendorId: string, over: Record<string, unknown> = {}) => {
    const res = await request(t.app, 'POST', BILLS, {
      token,
      body: {
        vendor_id: vendorId, invoice_number: `INV-${randomUUID().slice(0, 8)}`, invoice_date: '2026-11-01', due_date: '2026-11-30',
        currency: 'USD', line_items: [{ description: 'Paper', amount: 12_000 }], ...over,
      },
    });
    return res;
  };

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    // The teammate is an AP clerk: an employee with AP_ACCESS.
    await t.db.query(`UPDATE spend_users SET user_permissions = '["AP_ACCESS"]' WHERE id = $1`, [a.users.teammate]);
    for (const role of ['admin', 'bookkeeper', 'manager', 'employee', 'outsider'] as const) tokens[role] = await signIn(t.app, a.email(role));
    tokens.clerk = await signIn(t.app, a.email('teammate'));
    tokens.bAdmin = await signIn(t.app, b.email('admin'));
    const vendor = await makeVendor(t.app, tokens.admin, 'Paper Co');
    for (const token of [tokens.admin, tokens.clerk]) {
      const res = await createBill(token, vendor);
      expect(res.status, res.text).toBe(200);
      aBills.push(billSchema.parse(res.body));
    }
    const res = await createBill(tokens.bAdmin, await makeVendor(t.app, tokens.bAdmin, 'Foreign Co'));
    expect(res.status, res.text).toBe(200);
    bBill = billSchema.parse(res.body);
    aBills = [...aBills].sort((x, y) => (x.id < y.id ? -1 : 1));
  });

  it.each([
    ['admin', true], ['bookkeeper', true], ['clerk', true], ['manager', false], ['employee', false], ['outsider', false],
  ] as const)('%s: every bill of the business when they manage bill pay, none otherwise; never another business’s', async (who, all) => {
    const { changes } = await forward(t.app, tokens[who]);
    expect(billIds(changes)).toEqual(all ? aBills.map((x) => x.id) : []);
    for (const c of changes.filter((x) => x.collection === 'bills')) billSchema.strict().parse(c.doc);
    expect(billIds(changes)).not.toContain(bBill.id);
  });

  it('sends the same bills in the first mirror’s backfill walk', async () => {
    expect(billIds(await backfill(t.app, tokens.clerk))).toEqual(aBills.map((x) => x.id));
    expect(billIds(await backfill(t.app, tokens.employee))).toEqual([]);
    expect(billIds(await backfill(t.app, tokens.bAdmin))).toEqual([bBill.id]);
  });

  it('shows a bill to whom an approvals row names its approver, and to its creator after they lose AP_ACCESS', async () => {
    const [{ seq }] = (await t.db.query<{ seq: number }>('SELECT change_seq + 1 AS seq FROM businesses WHERE id = $1', [a.businessId])) as [{ seq: number }];
    await t.db.query('UPDATE businesses SET change_seq = $2 WHERE id = $1', [a.businessId, seq]);
    await t.db.query(
      `INSERT INTO approvals (id, business_id, object_type, object_id, user_id, approver_id, status, change_seq)
       VALUES ($1, $2, 'bill', $3, $4, $5, 'PENDING', $6)`,
      [randomUUID(), a.businessId, aBills[0]!.id, a.users.admin, a.users.employee, seq],
    );
    expect(billIds((await forward(t.app, tokens.employee)).changes)).toEqual([aBills[0]!.id]);
    expect(billIds(await backfill(t.app, tokens.employee))).toEqual([aBills[0]!.id]);
    expect(billIds((await forward(t.app, tokens.outsider)).changes)).toEqual([]);

    const clerkBill = aBills.find((x) => x.created_by === a.users.teammate)!;
    const before = (await forward(t.app, tokens.clerk)).epoch;
    await t.db.query(`UPDATE spend_users SET user_permissions = '[]' WHERE id = $1`, [a.users.teammate]);
    const after = await forward(t.app, await signIn(t.app, a.email('teammate')));
    expect(billIds(after.changes)).toEqual([clerkBill.id]);
    // What they may see changed: the epoch tells the client to pull again from zero.
    expect(after.epoch).not.toBe(before);
    await t.db.query(`UPDATE spend_users SET user_permissions = '["AP_ACCESS"]' WHERE id = $1`, [a.users.teammate]);
  });

  it('creates under the client’s id; a repeat answers the stored bill, anyone else’s use of the id is refused', async () => {
    const vendor = aBills[0]!.vendor_id;
    const id = randomUUID();
    const first = await createBill(tokens.admin, vendor, { id, invoice_number: 'OFF-1' });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ id, invoice_number: 'OFF-1', amount: 12_000, status: 'DRAFT' });
    const again = await createBill(tokens.admin, vendor, { id, invoice_number: 'OFF-1' });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);
    const count = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bills WHERE id = $1', [id]);
    expect(Number(count[0]!.n)).toBe(1);
    const other = await createBill(tokens.bookkeeper, vendor, { id });
    expect([other.status, other.body.error_v2?.error_code, other.body.error_v2?.errors?.id]).toEqual([422, 'REQUEST_7001', 'id is already used by another bill']);
    const foreign = await createBill(tokens.bAdmin, bBill.vendor_id, { id });
    expect(foreign.status).toBe(422);
  });

  it('answers a create with the row the worker showed for it (bill.create’s blank + apply), ids of lines aside', async () => {
    const args = billCreate.args.parse({
      id: randomUUID(), vendor_id: aBills[0]!.vendor_id, invoice_number: ' OFF 2 ', invoice_date: '2026-11-02', due_date: '2026-12-02',
      currency: 'EUR', memo: 'Quarterly', submit: true,
      line_items: [{ description: 'Service', amount: 40_000, gl_account_id: a.glAccounts.active[0] }, { description: 'Setup', amount: 2_500 }],
    });
    const at = new Date(NOW).toISOString();
    const shown = billCreate.apply(billCreate.blank!(args, { id: args.id, actor: { user_id: a.users.admin, business_id: a.businessId }, at }), args);
    const res = await request(t.app, 'POST', BILLS, { token: tokens.admin, body: billCreate.request(args).body });
    expect(res.status, res.text).toBe(200);
    const stored = billSchema.parse(res.body);
    const comparable = (bill: Bill) => ({ ...bill, change_seq: 0, line_items: bill.line_items.map((l) => ({ ...l, id: '' })) });
    expect(comparable(stored)).toEqual(comparable(shown));
  });
});
