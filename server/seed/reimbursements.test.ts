import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReimbursementStatus } from '../../schema/entities/reimbursement.ts';
import { mileageAmount, perDiemAmount, REIMBURSEMENT_MOVES, settlesAt } from '../../schema/reimbursement-rules.ts';
import { hashPassword } from '../auth/password.ts';
import type { Db } from '../db/db.ts';
import { COLLECTIONS } from '../domain/collections.ts';
import { sniffContentType } from '../../schema/file-content.ts';
import { openTestDb, testDatabases } from '../test-db.ts';
import type { TestDb } from '../test-db.ts';
import { generateDemo } from './generate.ts';
import { generateReceipts, tinyPng } from './receipts.ts';
import { defaultReimbursements, generateClaims, REJECTION_REASONS } from './reimbursements.ts';
import { expectSeqsOneToM, MIRRORED_TABLES } from './seq-checks.ts';
import { seedDemo } from './seed.ts';
import type { SeedDemoResult } from './seed.ts';
import { DEFAULT_SEED } from './types.ts';
import { SURFACE_DEMO } from './surfaces.ts';

const NOW = new Date('2026-11-21T00:00:00.000Z');
const DAY = 86_400_000;
const fastHash = (password: string) => hashPassword(password, { N: 1024, r: 8, p: 1 });
const count = async (db: Db, sql: string, params: unknown[] = []) => Number((await db.query<{ n: number }>(sql, params))[0]?.n);

/** Statuses the machine reaches from DRAFT (every seeded status must be one). */
function reachable(): Set<ReimbursementStatus> {
  const seen = new Set<ReimbursementStatus>(['DRAFT']);
  const queue: ReimbursementStatus[] = ['DRAFT'];
  for (let s = queue.shift(); s; s = queue.shift()) {
    for (const next of REIMBURSEMENT_MOVES[s]) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return seen;
}

describe('generateClaims', () => {
  const data = generateDemo({ transactions: 500, now: NOW });
  const g = generateClaims(data, { count: 4_000, now: NOW, seed: DEFAULT_SEED });

  it('is deterministic and leaves the demo rows alone', () => {
    expect(generateClaims(generateDemo({ transactions: 500, now: NOW }), { count: 4_000, now: NOW, seed: DEFAULT_SEED })).toEqual(g);
    expect(generateClaims(data, { count: 0, now: NOW, seed: 1 })).toEqual({ claims: [], approvals: [], payments: [], maxChangeSeq: data.maxChangeSeq });
    expect(() => generateClaims(data, { count: -1, now: NOW, seed: 1 })).toThrow(RangeError);
  });

  it('mixes ≈70 % out of pocket, ≈20 % mileage, ≈10 % per diem over many claimants and 18 months', () => {
    const share = (type: string) => g.claims.filter((c) => c.type === type).length / g.claims.length;
    expect(share('OUT_OF_POCKET')).toBeCloseTo(0.7, 1);
    expect(share('MILEAGE')).toBeCloseTo(0.2, 1);
    expect(share('PER_DIEM')).toBeCloseTo(0.1, 1);
    expect(new Set(g.claims.map((c) => c.user_id)).size).toBeGreaterThan(30);
    const dates = g.claims.map((c) => c.transaction_date).sort();
    expect(dates[0]! < '2025-06-01').toBe(true);
    expect(dates.at(-1)! >= '2026-11-01').toBe(true);
    expect(dates.at(-1)! <= '2026-11-21').toBe(true);
  });

  it('computes every amount with the schema rules', () => {
    for (const c of g.claims) {
      if (c.type === 'MILEAGE') {
        expect(c.trip_date).toBe(c.transaction_date);
        expect(c.distance_miles).toBeGreaterThan(0);
        expect(mileageAmount(c.distance_miles!, c.trip_date!)).toMatchObject({ amount: c.amount });
      } else if (c.type === 'PER_DIEM') {
        const computed = perDiemAmount(c.start_date!, c.end_date!);
        expect(computed).toMatchObject({ amount: c.amount });
        expect('days' in computed && computed.days).toBeGreaterThanOrEqual(1);
        expect('days' in computed && computed.days).toBeLessThanOrEqual(5);
        expect(c.location).toBeTruthy();
        expect(c.transaction_date).toBe(c.start_date);
        expect(c.created_at.slice(0, 10) >= c.end_date!).toBe(true); // written up after the trip
      } else {
        expect(c.merchant).toBeTruthy();
        expect(Number.isInteger(c.amount) && c.amount > 0).toBe(true);
      }
    }
  });

  it('gives statuses by age along the status machine, with timelines before now', () => {
    const statuses = reachable();
    const now = NOW.toISOString();
    for (const c of g.claims) {
      expect(statuses.has(c.status)).toBe(true);
      expect(c.created_at <= c.updated_at && c.updated_at < now).toBe(true);
      expect(c.submitted_at === null).toBe(c.status === 'DRAFT');
      if (c.submitted_at) expect(c.created_at <= c.submitted_at && c.submitted_at <= c.updated_at).toBe(true);
      expect(c.rejection_reason === null).toBe(c.status !== 'REJECTED');
      if (c.rejection_reason) expect(REJECTION_REASONS).toContain(c.rejection_reason);
    }
    const old = g.claims.filter((c) => NOW.getTime() - Date.parse(c.created_at) > 90 * DAY);
    const recent = g.claims.filter((c) => NOW.getTime() - Date.parse(c.created_at) < 14 * DAY);
    expect(old.filter((c) => c.status === 'PAID').length / old.length).toBeGreaterThan(0.8);
    const open = recent.filter((c) => ['DRAFT', 'SUBMITTED', 'APPROVED'].includes(c.status)).length / recent.length;
    expect(open).toBeGreaterThan(0.6);
    expect(g.claims.filter((c) => c.status === 'REJECTED').length / g.claims.length).toBeLessThan(0.1);
  });

  it('opens one approval per submitted claim (claimant\'s manager as approver) and one payment per paid claim', () => {
    const managerOf = new Map(data.users.map((u) => [u.id, u.manager_id]));
    const byClaim = new Map(g.approvals.map((a) => [a.object_id, a]));
    expect(byClaim.size).toBe(g.approvals.length);
    const payments = new Map(g.payments.map((p) => [p.reimbursement_id, p]));
    for (const c of g.claims) {
      const a = byClaim.get(c.id);
      if (c.status === 'DRAFT') {
        expect(a).toBeUndefined();
        continue;
      }
      expect(a).toMatchObject({
        user_id: c.user_id,
        approver_id: managerOf.get(c.user_id) ?? null,
        status: c.status === 'SUBMITTED' ? 'PENDING' : c.status === 'REJECTED' ? 'REJECTED' : 'APPROVED',
        reason: c.rejection_reason,
        created_at: c.submitted_at,
      });
      expect(a!.decided_by === null).toBe(c.status === 'SUBMITTED');
      if (a!.decided_by) expect(a!.decided_by).not.toBe(c.user_id);
      expect(payments.has(c.id)).toBe(c.status === 'PAID');
      if (c.status === 'PAID') {
        expect(payments.get(c.id)).toMatchObject({ amount: c.amount, user_id: c.user_id, created_at: c.updated_at });
        expect(a!.decided_at! < c.updated_at).toBe(true);
      }
    }
  });

  it('interleaves the seqs with the transactions\' in time order, after the reference and people rows', () => {
    const fresh = generateDemo({ transactions: 500, now: NOW });
    const firstTx = fresh.transactions[0]!.change_seq;
    const txSeqs = data.transactions.map((t) => t.change_seq);
    const seqs = [...txSeqs, ...g.claims.map((c) => c.change_seq), ...g.approvals.map((a) => a.change_seq)].sort((a, b) => a - b);
    expect(seqs[0]).toBe(firstTx);
    expect(seqs.at(-1)).toBe(g.maxChangeSeq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(g.maxChangeSeq).toBe(fresh.maxChangeSeq + g.claims.length + g.approvals.length);
    // Transactions keep their order (by when they occurred); claims go by when they were last touched.
    expect(txSeqs).toEqual([...txSeqs].sort((a, b) => a - b));
    expect(g.claims.map((c) => c.updated_at)).toEqual(g.claims.map((c) => c.updated_at).sort());
    expect(g.claims.map((c) => c.change_seq)).toEqual(g.claims.map((c) => c.change_seq).sort((a, b) => a - b));
    // Newest first, the feed alternates: the newest hundred seqs hold both kinds.
    const top = g.maxChangeSeq - 100;
    expect(data.transactions.some((t) => t.change_seq > top)).toBe(true);
    expect(g.claims.some((c) => c.change_seq > top)).toBe(true);
    // Each approval right after its claim.
    const claimSeq = new Map(g.claims.map((c) => [c.id, c.change_seq]));
    for (const a of g.approvals) expect(a.change_seq).toBe(claimSeq.get(a.object_id)! + 1);
  });

  it('defaults to one claim per five transactions, capped', () => {
    expect(defaultReimbursements(100_000)).toBe(20_000);
    expect(defaultReimbursements(200)).toBe(40);
    expect(defaultReimbursements(5_000_000)).toBe(100_000);
  });
});

describe('generateReceipts', () => {
  it('gives ≈65 % of the card transactions older than a week a distinct small PNG, declined ones none', () => {
    const data = generateDemo({ transactions: 5_000, now: NOW });
    const g = generateReceipts(data, NOW, DEFAULT_SEED);
    const again = generateReceipts(generateDemo({ transactions: 5_000, now: NOW }), NOW, DEFAULT_SEED);
    expect(again.receipts.map((r) => r.sha256)).toEqual(g.receipts.map((r) => r.sha256));
    const old = data.transactions.filter((t) => NOW.getTime() - Date.parse(t.occurred_at) > 7 * DAY && t.state !== 'DECLINED' && t.state !== 'REVERSED');
    const share = old.filter((t) => t.receipt_ids.length === 1).length / old.length;
    expect(share).toBeGreaterThan(0.6);
    expect(share).toBeLessThan(0.7);
    expect(data.transactions.filter((t) => t.state === 'DECLINED' && t.receipt_ids.length > 0)).toEqual([]);
    expect(new Set(g.receipts.map((r) => r.sha256)).size).toBe(g.receipts.length);
    for (const r of g.receipts.slice(0, 50)) {
      expect(sniffContentType(r.bytes)).toBe('image/png');
      expect(r.size).toBe(r.bytes.length);
      expect(r.size).toBeLessThan(400);
    }
    expect(g.bytes).toBe(g.receipts.reduce((s, r) => s + r.size, 0));
  });

  it('writes a valid PNG (signature, chunk CRCs)', () => {
    const png = tinyPng('hello');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // IHDR's CRC for a 1×1 8-bit greyscale image is a known constant.
    expect(png.readUInt32BE(8 + 8 + 13)).toBe(0x3a7e9b55);
  });
});

describe.each(await testDatabases())('seedDemo with reimbursements and receipts on %s', (kind) => {
  let t: TestDb;
  let seeded: SeedDemoResult;

  beforeAll(async () => {
    t = await openTestDb(kind);
    seeded = await seedDemo(t.db, { transactions: 2_000, reimbursements: 400, receipts: true, now: NOW, hashPassword: fastHash });
  });
  afterAll(() => t?.close());

  it('stores the claims (plus the hand-made ones), approvals, payments and receipts it reports', async () => {
    const b = [seeded.businessId];
    expect(seeded.counts.reimbursements).toBe(400 + 11);
    expect(await count(t.db, 'SELECT count(*) AS n FROM reimbursements WHERE business_id = $1', b)).toBe(seeded.counts.reimbursements);
    expect(await count(t.db, 'SELECT count(*) AS n FROM approvals WHERE business_id = $1', b)).toBe(seeded.counts.approvals);
    expect(await count(t.db, 'SELECT count(*) AS n FROM ledger_entries WHERE business_id = $1', b)).toBe(seeded.counts.payments);
    expect(await count(t.db, 'SELECT count(*) AS n FROM receipts WHERE business_id = $1', b)).toBe(seeded.counts.receipts);
    expect(await count(t.db, 'SELECT count(*) AS n FROM transaction_receipts WHERE business_id = $1', b)).toBe(seeded.counts.receipts);
    expect(await count(t.db, 'SELECT count(*) AS n FROM receipt_uploads WHERE business_id = $1', b)).toBe(seeded.counts.receipts);
    expect(await count(t.db, 'SELECT coalesce(sum(size), 0) AS n FROM receipts WHERE business_id = $1', b)).toBe(seeded.receiptBytes);
  });

  it('keeps the seqs 1..M unique, the hand-made claims last, the counter at M', async () => {
    await expectSeqsOneToM(t.db, seeded.businessId, seeded.maxChangeSeq, MIRRORED_TABLES);
    const [employee] = await t.db.query<{ lo: number }>(
      `SELECT min(r.change_seq) AS lo FROM reimbursements r JOIN spend_users u ON u.id = r.user_id
        WHERE u.email = 'employee@demo.test' AND r.merchant = 'Blue Bottle Coffee' AND r.memo = 'Coffee with a candidate'`,
    );
    // The hand-made claims come last but for the card request (and its approval) and the business's
    // per-diem locations and vendors after them, then the demo admin's saved reports and dashboard,
    // and the business's two mapping rules, then the demo employee's two trips (the generated ones
    // are in the timeline with the claims and transactions: issue 27's first page, see seed/trips.ts).
    const reporting = await count(t.db, `SELECT (SELECT count(*) FROM saved_reports WHERE business_id = $1) + (SELECT count(*) FROM dashboards WHERE business_id = $1)
      + (SELECT count(*) FROM accounting_mapping_rules WHERE business_id = $1) AS n`, [seeded.businessId]);
    expect(reporting).toBe(7);
    // And after the trips, the procurement demo's rows (seed/procurement.ts; without bills seeded, no POs: the
    // budget and its card, the fulfilled request with its approval and card, the pending one with its approval).
    const procurement = await count(t.db, `SELECT (SELECT count(*) FROM spend_allocations WHERE business_id = $1)
      + (SELECT count(*) FROM spend_requests WHERE business_id = $1) + (SELECT count(*) FROM purchase_orders WHERE business_id = $1)
      + (SELECT count(*) FROM approvals WHERE business_id = $1 AND object_type = 'spend_request')
      + (SELECT count(*) FROM cards WHERE business_id = $1 AND (spend_allocation_id IS NOT NULL OR spend_request_id IS NOT NULL))
      + (SELECT count(*) FROM bills WHERE business_id = $1 AND purchase_order_id IS NOT NULL) AS n`, [seeded.businessId]);
    expect(procurement).toBe(7);
    // Then the demo's expense policy (issue 29, seed/expense-policies.ts).
    const policies = await count(t.db, 'SELECT count(*) AS n FROM expense_policies WHERE business_id = $1', [seeded.businessId]);
    expect(policies).toBe(1);
    // Then the demo's notifications (issue 29, seed/notifications.ts), one seq each.
    const notifications = await count(t.db, 'SELECT count(*) AS n FROM notifications WHERE business_id = $1', [seeded.businessId]);
    expect(notifications).toBeGreaterThan(0);
    // Then the wallet (issue 30, seed/treasury.ts), last of all: its accounts (Operating per currency paid in, Reserve,
    // Investment), then its four transfers, then its linked bank account (mirrored since migration 064).
    const wallet = await count(t.db, `SELECT (SELECT count(*) FROM ledger_accounts WHERE business_id = $1 AND change_seq IS NOT NULL)
      + (SELECT count(*) FROM wallet_transfers WHERE business_id = $1) AS n`, [seeded.businessId]);
    const banks = await count(t.db, 'SELECT count(*) AS n FROM bank_accounts WHERE business_id = $1', [seeded.businessId]);
    expect(banks).toBe(1);
    const currencies = await count(t.db, `SELECT count(DISTINCT currency) AS n FROM (SELECT currency FROM ledger_entries WHERE business_id = $1
      UNION SELECT currency FROM transactions WHERE business_id = $1 UNION SELECT 'USD') c`, [seeded.businessId]);
    expect(wallet).toBe(currencies + 2 + 4);
    // And after the wallet, issue 31's hidden spend users (seed/surfaces.ts: the firm's two advisors, the network vendor's admin).
    expect(Number(employee?.lo)).toBe(
      seeded.maxChangeSeq - 20 - 2 * seeded.counts.cardRequests - seeded.counts.reimbursementRates - seeded.counts.vendors - reporting - 2 - procurement - policies
        - notifications - wallet - banks - SURFACE_DEMO.hiddenUsers,
    );
  });

  it('agrees with the database: approvals per status, payments settle 3 days on, references resolve', async () => {
    const wrongApprovals = await count(
      t.db,
      `SELECT count(*) AS n FROM reimbursements r JOIN spend_users u ON u.id = r.user_id
         LEFT JOIN approvals a ON a.object_id = r.id
        WHERE (r.status = 'DRAFT' AND a.id IS NOT NULL)
           OR (r.status <> 'DRAFT' AND (a.id IS NULL OR a.user_id <> r.user_id OR a.approver_id IS DISTINCT FROM u.manager_id
               OR a.status <> CASE r.status WHEN 'SUBMITTED' THEN 'PENDING' WHEN 'REJECTED' THEN 'REJECTED' ELSE 'APPROVED' END))`,
    );
    expect(wrongApprovals).toBe(0);
    const wrongPayments = await count(
      t.db,
      `SELECT count(*) AS n FROM reimbursements r LEFT JOIN ledger_entries l ON l.reimbursement_id = r.id
        WHERE (r.status = 'PAID') <> (l.id IS NOT NULL) OR l.amount <> r.amount OR l.user_id <> r.user_id`,
    );
    expect(wrongPayments).toBe(0);
    const [payment] = await t.db.query<{ created_at: Date | string; settles_at: Date | string }>(
      'SELECT created_at, settles_at FROM ledger_entries ORDER BY created_at LIMIT 1',
    );
    expect(new Date(payment!.settles_at).getTime()).toBe(settlesAt(new Date(payment!.created_at)).getTime());
    const dangling = await count(
      t.db,
      `SELECT count(*) AS n FROM reimbursements r
         LEFT JOIN spend_users u ON u.id = r.user_id AND u.business_id = r.business_id
         LEFT JOIN gl_accounts g ON g.id = r.gl_account_id
         LEFT JOIN departments d ON d.id = r.department_id
        WHERE u.id IS NULL OR (r.gl_account_id IS NOT NULL AND g.id IS NULL) OR (r.department_id IS NOT NULL AND d.id IS NULL)`,
    );
    expect(dangling).toBe(0);
    const danglingReceipts = await count(
      t.db,
      `SELECT count(*) AS n FROM transaction_receipts tr
         LEFT JOIN transactions x ON x.id = tr.transaction_id AND x.user_id = tr.attached_by
         LEFT JOIN receipts r ON r.id = tr.receipt_id AND r.user_id = tr.attached_by
        WHERE x.id IS NULL OR r.id IS NULL`,
    );
    expect(danglingReceipts).toBe(0);
  });

  it('stores receipts whose sha256 is their bytes\' and that the transaction docs list', async () => {
    expect(await count(t.db, "SELECT count(*) AS n FROM receipts WHERE encode(sha256(bytes), 'hex') <> sha256 OR octet_length(bytes) <> size")).toBe(0);
    const [share] = await t.db.query<{ s: number }>(
      `SELECT avg((EXISTS (SELECT 1 FROM transaction_receipts tr WHERE tr.transaction_id = x.id))::int)::float8 AS s
         FROM transactions x WHERE x.occurred_at < $1::timestamptz - interval '7 days' AND x.state NOT IN ('DECLINED', 'REVERSED')`,
      [NOW.toISOString()],
    );
    expect(Number(share?.s)).toBeGreaterThan(0.6);
    expect(Number(share?.s)).toBeLessThan(0.7);
  });

  it('puts the receipts in the transactions\' and the claims in the reimbursements\' wire docs', async () => {
    const docs = await t.db.query<{ doc: { receipt_ids: string[] }; n: number }>(
      `SELECT ${COLLECTIONS.transactions.docSql} AS doc,
              (SELECT count(*)::int FROM transaction_receipts tr WHERE tr.transaction_id = r.id) AS n
         FROM transactions r WHERE r.business_id = $1 ORDER BY r.change_seq LIMIT 300`,
      [seeded.businessId],
    );
    expect(docs.some((d) => d.doc.receipt_ids.length === 1)).toBe(true);
    for (const d of docs) expect(d.doc.receipt_ids).toHaveLength(Number(d.n));
    const [claim] = await t.db.query<{ doc: Record<string, unknown> }>(
      `SELECT ${COLLECTIONS.reimbursements.docSql} AS doc FROM reimbursements r WHERE r.business_id = $1 AND r.type = 'MILEAGE' LIMIT 1`,
      [seeded.businessId],
    );
    expect(claim?.doc).toMatchObject({ type: 'MILEAGE', currency: 'USD' });
    expect(typeof claim?.doc.distance_miles).toBe('number');
  });
});
