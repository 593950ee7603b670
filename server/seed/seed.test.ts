import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportQuerySchema } from '../../schema/reports.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { openTestDb, testDatabases } from '../test-db.ts';
import type { TestDb } from '../test-db.ts';
import type { Db } from '../db/db.ts';
import { DemoAlreadySeededError, seedDemo, startOfUtcDay, wipeBusinessData } from './seed.ts';
import type { SeedDemoResult } from './seed.ts';
import { expectSeqsOneToM, MIRRORED_TABLES } from './seq-checks.ts';
import { TRANSACTIONS_PER_TRIP } from './trips.ts';
import { checkLedger } from '../ledger/check.ts';
import { DEMO_PASSWORD } from './types.ts';
import { SURFACE_DEMO } from './surfaces.ts';
import { shownUserSql } from '../domain/hidden-users.ts';

const NOW = new Date('2026-11-21T00:00:00.000Z');
// Real scrypt, cheaper parameters: 42 full-strength hashes per seed would dominate the suite.
const fastHash = (password: string) => hashPassword(password, { N: 1024, r: 8, p: 1 });

const count = async (db: Db, sql: string, params: unknown[] = []) => Number((await db.query<{ n: number }>(sql, params))[0]?.n);

/** Rows whose search_text differs from the migration's function (tracking pairs may come in any order). */
async function searchTextMismatches(db: Db) {
  const rows = await db.query<{ id: string; mine: string; theirs: string }>(
    `SELECT id, search_text AS mine,
            ll_transaction_search_text(merchant_name, memo, user_id, gl_account_id, department_id, location_id, tracking) AS theirs
       FROM transactions`,
  );
  const words = (s: string) => s.split(' ').sort().join(' ');
  return rows.filter((r) => r.mine === '' || words(r.mine) !== words(r.theirs));
}

describe('startOfUtcDay', () => {
  it('truncates to midnight UTC', () => {
    expect(startOfUtcDay(new Date('2026-03-04T23:59:59.999Z')).toISOString()).toBe('2026-03-04T00:00:00.000Z');
  });
});

describe.each(await testDatabases())('seedDemo on %s', (kind) => {
  let t: TestDb;
  let seeded: SeedDemoResult;

  beforeAll(async () => {
    t = await openTestDb(kind);
    seeded = await seedDemo(t.db, { transactions: 2_000, bills: 600, now: NOW, hashPassword: fastHash });
  });
  afterAll(() => t?.close());

  it('inserts every row and reports the counts', async () => {
    expect(seeded.counts.transactions).toBe(2_000);
    const tables = {
      departments: seeded.counts.departments,
      locations: seeded.counts.locations,
      gl_accounts: seeded.counts.glAccounts,
      tracking_categories: seeded.counts.trackingCategories,
      // Issue 31 (seed/surfaces.ts): the firm's and the network vendor's hidden users, and their identities with the applicant's.
      spend_users: seeded.counts.users + SURFACE_DEMO.hiddenUsers,
      identities: seeded.counts.users + SURFACE_DEMO.identities,
      cards: seeded.counts.cards,
      transactions: 2_000,
      reimbursements: seeded.counts.reimbursements,
      approvals: seeded.counts.approvals,
      card_requests: seeded.counts.cardRequests,
      reimbursement_rates: seeded.counts.reimbursementRates,
      vendors: seeded.counts.vendors,
      // The generated 600 and the procurement demo's two.
      bills: 600 + 2,
      spend_allocations: seeded.counts.spendAllocations,
      spend_requests: seeded.counts.spendRequests,
      purchase_orders: seeded.counts.purchaseOrders,
      // The demo employee's two trips and one generated per TRANSACTIONS_PER_TRIP transactions.
      trips: 2 + 2_000 / TRANSACTIONS_PER_TRIP,
    };
    for (const [table, n] of Object.entries(tables)) expect(await count(t.db, `SELECT count(*) AS n FROM ${table}`)).toBe(n);
  });

  it("gives the demo admin saved reports the API would accept, on one dashboard in order", async () => {
    const reports = await t.db.query<{ id: string; query: unknown; email: string }>(
      `SELECT r.id::text, r.query, u.email FROM saved_reports r JOIN spend_users u ON u.id = r.owner_id WHERE r.business_id = $1 ORDER BY r.change_seq`,
      [seeded.businessId]);
    expect(reports.length).toBe(4);
    for (const r of reports) {
      expect(r.email).toBe('admin@demo.test');
      expect(reportQuerySchema.safeParse(r.query).success).toBe(true);
    }
    const [board] = await t.db.query<{ items: { report_id: string }[] }>('SELECT items FROM dashboards WHERE business_id = $1', [seeded.businessId]);
    expect(board!.items.map((i) => i.report_id)).toEqual(reports.map((r) => r.id));
  });

  it('stamps change_seq 1..M uniquely across tables and sets the business counter to M', async () => {
    await expectSeqsOneToM(t.db, seeded.businessId, seeded.maxChangeSeq, MIRRORED_TABLES);
  });

  it('generates trips at scale over the cardholders, the past ones with their dates\' charges linked (issue 27)', async () => {
    expect(seeded.counts.trips).toBe(2_000 / TRANSACTIONS_PER_TRIP);
    const today = NOW.toISOString().slice(0, 10);
    const trips = await t.db.query<{ user_id: string; past: boolean; linked: number; outside: number }>(
      `SELECT r.user_id::text, r.end_date < $2::date AS past,
              (SELECT count(*)::int FROM trip_spend_events e WHERE e.trip_id = r.id) AS linked,
              (SELECT count(*)::int FROM trip_spend_events e JOIN transactions x ON x.id = e.object_id
                WHERE e.trip_id = r.id AND e.object_type = 'transaction'
                  AND (x.user_id <> r.user_id OR x.occurred_at < r.start_date OR x.occurred_at >= r.end_date + 1)) AS outside
         FROM trips r WHERE r.business_id = $1 AND r.name NOT IN ('Customer workshop in New York', 'Partner summit in London')`,
      [seeded.businessId, today],
    );
    const past = trips.filter((r) => r.past);
    expect([past.length, trips.length - past.length]).toEqual([9, 1]);
    expect(past.every((r) => r.linked > 0) && trips.every((r) => r.outside === 0)).toBe(true);
    expect(trips.find((r) => !r.past)!.linked).toBe(0);
    expect(new Set(trips.map((r) => r.user_id)).size).toBeGreaterThan(1);
  });

  it("gives the demo employee a past trip with spend linked and an upcoming one (issue 27)", async () => {
    const trips = await t.db.query<{ email: string; end_date: string; start_date: string; transactions: number; claims: number }>(
      `SELECT u.email, to_char(r.end_date, 'YYYY-MM-DD') AS end_date, to_char(r.start_date, 'YYYY-MM-DD') AS start_date,
              (SELECT count(*) FROM trip_spend_events e WHERE e.trip_id = r.id AND e.object_type = 'transaction') AS transactions,
              (SELECT count(*) FROM trip_spend_events e WHERE e.trip_id = r.id AND e.object_type = 'reimbursement') AS claims
         FROM trips r JOIN spend_users u ON u.id = r.user_id
        WHERE r.business_id = $1 AND r.name IN ('Customer workshop in New York', 'Partner summit in London') ORDER BY r.start_date`,
      [seeded.businessId],
    );
    const today = NOW.toISOString().slice(0, 10);
    expect(trips.map((x) => x.email)).toEqual(['employee@demo.test', 'employee@demo.test']);
    expect(trips[0]!.end_date < today && Number(trips[0]!.transactions) > 0 && Number(trips[0]!.claims) === 1).toBe(true);
    expect(trips[1]!.start_date > today && Number(trips[1]!.transactions) + Number(trips[1]!.claims) === 0).toBe(true);
  });

  it("holds one charge of the demo employee's, by the fraud rules (issue 24)", async () => {
    const held = await t.db.query<{ email: string; merchant_name: string; fraud_reasons: string[]; card_status: string; state: string }>(
      `SELECT u.email, r.merchant_name, r.fraud_reasons, c.status AS card_status, r.state FROM transactions r
         JOIN spend_users u ON u.id = r.user_id JOIN cards c ON c.id = r.card_id
        WHERE r.business_id = $1 AND r.fraud_status = 'FLAGGED'`,
      [seeded.businessId],
    );
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ email: 'employee@demo.test', merchant_name: 'Bijouterie Royale', card_status: 'ACTIVE', state: 'PENDING' });
    expect(held[0]!.fraud_reasons).toContain('AMOUNT_ABOVE_USUAL');
  });

  it('builds search_text exactly as the migration function does', async () => {
    expect(await searchTextMismatches(t.db)).toEqual([]);
    const [sample] = await t.db.query<{ n: number }>("SELECT count(*) AS n FROM transactions WHERE search_text LIKE '%6010 software & subscriptions%'");
    expect(Number(sample?.n)).toBeGreaterThan(0);
  });

  it('leaves no dangling references (the fast path skips foreign-key triggers)', async () => {
    const orphans = await count(
      t.db,
      `SELECT count(*) AS n FROM transactions t
         LEFT JOIN cards c ON c.id = t.card_id AND c.user_id = t.user_id
         LEFT JOIN gl_accounts g ON g.id = t.gl_account_id
         LEFT JOIN departments d ON d.id = t.department_id
         LEFT JOIN locations l ON l.id = t.location_id
        WHERE c.id IS NULL OR (t.gl_account_id IS NOT NULL AND g.id IS NULL)
           OR (t.department_id IS NOT NULL AND d.id IS NULL) OR (t.location_id IS NOT NULL AND l.id IS NULL)`,
    );
    expect(orphans).toBe(0);
    const orphanPeople = await count(
      t.db,
      `SELECT count(*) AS n FROM spend_users u
         LEFT JOIN spend_users m ON m.id = u.manager_id
         LEFT JOIN identities i ON i.id = u.identity_id
         LEFT JOIN departments d ON d.id = u.department_id
        WHERE i.id IS NULL OR (d.id IS NULL AND ${shownUserSql('u')}) OR (u.manager_id IS NOT NULL AND m.id IS NULL)`,
    );
    expect(orphanPeople).toBe(0); // a hidden user (issue 31: the firm's, the network vendor's) has no department
  });

  it('lets every demo account sign in with the demo password, each with its own salt', async () => {
    expect(seeded.accounts.map((a) => a.email)).toContain('employee@demo.test');
    const rows = await t.db.query<{ email: string; password_hash: string }>(
      'SELECT email, password_hash FROM identities WHERE email = ANY($1::text[])',
      [seeded.accounts.map((a) => a.email)],
    );
    expect(rows).toHaveLength(7);
    expect(new Set(rows.map((r) => r.password_hash)).size).toBe(7);
    for (const row of rows) expect(await verifyPassword(DEMO_PASSWORD, row.password_hash)).toBe(true);
  });

  it('keeps the reporting line: employee reports to the manager', async () => {
    const [line] = await t.db.query<{ manager_email: string; is_manager: boolean }>(
      `SELECT m.email AS manager_email, m.is_manager FROM spend_users e JOIN spend_users m ON m.id = e.manager_id
        WHERE e.email = 'employee@demo.test'`,
    );
    expect(line).toEqual({ manager_email: 'manager@demo.test', is_manager: true });
  });

  it('connects the CSV accounting provider and maps ride-hailing to ground transportation (issue 12)', async () => {
    const rows = await t.db.query<{ provider_type: string; connected_by: string; rules: string[] }>(
      `SELECT s.provider_type, u.email AS connected_by,
              (SELECT array_agg(r.match_value || ' ' || g.code ORDER BY r.priority) FROM accounting_mapping_rules r
                 JOIN gl_accounts g ON g.id = r.gl_account_id WHERE r.business_id = s.business_id) AS rules
         FROM accounting_settings s JOIN spend_users u ON u.id = s.connected_by`,
    );
    expect(rows).toEqual([{ provider_type: 'csv', connected_by: 'admin@demo.test', rules: ['Uber 6022', 'Lyft 6022'] }]);
  });

  it('gives the demo manager claims to review: pending approvals of their reports, none of their own', async () => {
    const rows = await t.db.query<{ status: string; n: number }>(
      `SELECT a.status, count(*)::int AS n FROM approvals a JOIN spend_users e ON e.id = a.user_id JOIN spend_users m ON m.id = e.manager_id
        WHERE m.email = 'manager@demo.test' AND a.object_type IN ('reimbursement', 'card_request') GROUP BY a.status ORDER BY a.status`,
    );
    const byStatus = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    expect(byStatus.PENDING).toBeGreaterThanOrEqual(3);
    expect(byStatus).toMatchObject({ APPROVED: 2, REJECTED: 1 });
    // Every submitted claim has exactly one pending approval; the paid one has one payment.
    expect(await count(t.db, `SELECT count(*) AS n FROM reimbursements r WHERE r.status = 'SUBMITTED'
      AND (SELECT count(*) FROM approvals a WHERE a.object_id = r.id AND a.status = 'PENDING') <> 1`)).toBe(0);
    expect(await count(t.db, `SELECT count(*) AS n FROM ledger_entries l JOIN reimbursements r ON r.id = l.reimbursement_id WHERE r.status = 'PAID'`)).toBe(1);
  });

  it('gives the AP clerk a real bill history: suppliers, statuses by due date, approvals, payments, seqs in time order', async () => {
    // One generated supplier per 60 bills besides the demo's six.
    expect(seeded.counts.vendors).toBe(6 + 10);
    const byStatus = Object.fromEntries(
      (await t.db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM bills GROUP BY status')).map((r) => [r.status, Number(r.n)]),
    );
    for (const status of ['DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'PAID', 'RECONCILED']) expect(byStatus[status]).toBeGreaterThan(0);
    // The total is the lines' sum; invoice numbers never repeat within a vendor; nothing happens after now.
    expect(await count(t.db, `SELECT count(*) AS n FROM bills b
      WHERE b.amount <> (SELECT sum(l.amount) FROM bill_line_items l WHERE l.bill_id = b.id)`)).toBe(0);
    expect(await count(t.db, `SELECT count(*) AS n FROM (SELECT vendor_id, invoice_key FROM bills GROUP BY 1, 2 HAVING count(*) > 1) d`)).toBe(0);
    expect(await count(t.db, `SELECT count(*) AS n FROM bills WHERE greatest(created_at, submitted_at, approved_at, paid_at, reconciled_at, updated_at) > $1`,
      [NOW.toISOString()])).toBe(0);
    // Each bill awaiting approval has its one pending approval, opened through the server's path.
    expect(await count(t.db, `SELECT count(*) AS n FROM bills b WHERE b.status = 'PENDING_APPROVAL'
      AND (SELECT count(*) FROM approvals a WHERE a.object_type = 'bill' AND a.object_id = b.id AND a.status = 'PENDING') <> 1`)).toBe(0);
    // Paid through Ledgerline: one settled attempt; marked paid by hand: none; a failed payment: one failed attempt.
    expect(await count(t.db, `SELECT count(*) AS n FROM bills b WHERE b.status IN ('PAID', 'RECONCILED') AND NOT b.paid_manually
      AND (SELECT count(*) FROM bill_payments p WHERE p.bill_id = b.id AND p.status = 'SETTLED') <> 1`)).toBe(0);
    expect(await count(t.db, `SELECT count(*) AS n FROM bills b JOIN bill_payments p ON p.bill_id = b.id WHERE b.paid_manually`)).toBe(0);
    expect(await count(t.db, `SELECT count(*) AS n FROM bills b WHERE b.status = 'PAYMENT_FAILED'
      AND (SELECT count(*) FROM bill_payments p WHERE p.bill_id = b.id AND p.status = 'FAILED') <> 1`)).toBe(0);
    // Issue 25, money only moved where it could: no payment (settled, failed, or one scheduled) to a
    // vendor without a verified bank account; most vendors have one, and some approved bills wait
    // for a vendor's bank details (the "Add bank details" path).
    const unpayable = `(v.bank_account_type IS NULL OR v.bank_verified_at IS NULL OR b.currency <> 'USD')`;
    expect(await count(t.db, `SELECT count(*) AS n FROM bills b JOIN vendors v ON v.id = b.vendor_id
      WHERE ${unpayable} AND (EXISTS (SELECT 1 FROM bill_payments p WHERE p.bill_id = b.id) OR b.status IN ('SCHEDULED', 'PAYMENT_FAILED'))`)).toBe(0);
    expect(await count(t.db, `SELECT count(*) AS n FROM bills b JOIN vendors v ON v.id = b.vendor_id
      WHERE b.status IN ('PAID', 'RECONCILED') AND NOT b.paid_manually AND ${unpayable}`)).toBe(0);
    expect(await count(t.db, `SELECT count(*) AS n FROM bill_payments WHERE status = 'SETTLED' AND (settles_on IS NULL OR settled_at IS NULL OR settles_on > $1::date)`,
      [NOW.toISOString().slice(0, 10)])).toBe(0);
    const vendorsWithBank = await count(t.db, 'SELECT count(*) AS n FROM vendors WHERE bank_verified_at IS NOT NULL');
    expect(vendorsWithBank / seeded.counts.vendors).toBeGreaterThan(0.6);
    expect(await count(t.db, `SELECT count(*) AS n FROM bills b JOIN vendors v ON v.id = b.vendor_id
      WHERE b.status = 'APPROVED' AND v.bank_account_type IS NULL`)).toBeGreaterThan(0);
    // Interleaved with the transactions (the newest-first backfill meets both), in the order they were last touched.
    const [span] = await t.db.query<{ bill_min: number; tx_max: number }>(
      'SELECT (SELECT min(change_seq) FROM bills) AS bill_min, (SELECT max(change_seq) FROM transactions) AS tx_max',
    );
    expect(Number(span!.bill_min)).toBeLessThan(Number(span!.tx_max));
    // (The procurement demo's two bills, billing its POs, follow every generated row: see seed/procurement.ts.)
    expect(await count(t.db, `SELECT count(*) AS n FROM (
      SELECT updated_at < lag(updated_at) OVER (ORDER BY change_seq) AS back FROM bills WHERE purchase_order_id IS NULL) s WHERE back`)).toBe(0);
  });

  it('refuses to seed the same business twice and changes nothing', async () => {
    await expect(seedDemo(t.db, { transactions: 10, now: NOW, hashPassword: fastHash })).rejects.toBeInstanceOf(
      DemoAlreadySeededError,
    );
    expect(await count(t.db, 'SELECT count(*) AS n FROM transactions')).toBe(2_000);
  });

  it('seeds a second tenant beside the first, and --reset wipes both', async () => {
    const other = await seedDemo(t.db, { transactions: 50, now: NOW, emailDomain: 'other.test', hashPassword: fastHash });
    expect(other.businessId).not.toBe(seeded.businessId);
    expect(await count(t.db, 'SELECT count(*) AS n FROM transactions WHERE business_id = $1', [other.businessId])).toBe(50);
    await wipeBusinessData(t.db);
    expect(await count(t.db, 'SELECT count(*) AS n FROM businesses')).toBe(0);
    expect(await count(t.db, 'SELECT count(*) AS n FROM identities')).toBe(0);
    expect(await count(t.db, 'SELECT count(*) AS n FROM transactions')).toBe(0);
  });
});

describe('seedDemo without superuser rights', () => {
  it('seeds with the foreign-key checks on, and the same search_text', async () => {
    const t = await openTestDb('pglite');
    try {
      await t.db.exec('CREATE ROLE ledgerline_app NOSUPERUSER; GRANT ALL ON ALL TABLES IN SCHEMA public TO ledgerline_app; SET ROLE ledgerline_app');
      await seedDemo(t.db, { transactions: 100, now: NOW, hashPassword: fastHash });
      expect(await count(t.db, 'SELECT count(*) AS n FROM transactions')).toBe(100);
      expect(await searchTextMismatches(t.db)).toEqual([]);
      // Issue 30: the treasury's postings went in with the ledger's triggers on, and check.
      expect((await checkLedger(t.db)).ok).toBe(true);
    } finally {
      await t.close();
    }
  });
});
