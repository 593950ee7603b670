/**
 * Varied rows for the report tests (issue 12), inserted through SQL into a makeBusiness fixture:
 * several months, weeks across a year end, times near midnight UTC, three currencies (one with
 * no minor unit), every transaction state, claims and bills in counted and uncounted statuses,
 * null dimensions, bills split over GL accounts, departments and tracking options (one bill with
 * two lines on the same account), refunds, and cards in several statuses and limit currencies.
 * Deterministic: a small PRNG picks everything.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/db.ts';
import type { Fixture, FixtureRole } from '../../test-fixtures.ts';

const HOLDERS: FixtureRole[] = ['manager', 'employee', 'teammate', 'outsider', 'admin'];
const DAYS = [
  '2025-11-03T08:00:00Z', '2025-12-29T23:59:59Z', '2025-12-31T23:30:00Z', '2026-01-01T00:00:00Z', '2026-01-04T12:00:00Z',
  '2026-01-05T00:00:01Z', '2026-02-28T23:59:59Z', '2026-03-01T00:00:00Z', '2026-03-31T10:00:00Z', '2026-04-01T09:00:00Z',
  '2026-06-30T23:59:59Z', '2026-07-01T00:00:00Z',
];
const CURRENCIES = ['USD', 'EUR', 'JPY'];
const STATES = ['PENDING', 'CLEARED', 'CLEARED', 'DECLINED', 'REVERSED'];
const CLAIM_STATUSES = ['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED', 'PAID', 'CANCELED'];
const BILL_STATUSES = ['DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'SCHEDULED', 'PAID', 'RECONCILED', 'REJECTED', 'CANCELED', 'PAYMENT_FAILED'];
const CARD_STATUSES = ['ACTIVE', 'LOCKED', 'SUSPENDED', 'TERMINATED'];
const MERCHANTS = ['Delta Air Lines', 'Uber', 'AWS', 'Zed Café'];

function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export type ReportFixture = { vendors: string[]; bills: string[] };

/** The next change seq of the business, as every mirrored write takes one. */
const SEQ = `(SELECT change_seq FROM bump)`;
const bump = `WITH bump AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $1 RETURNING change_seq)`;

export async function seedReportRows(db: Queryable, f: Fixture, opts: { transactions?: number; seed?: number } = {}): Promise<ReportFixture> {
  const r = prng(opts.seed ?? 12);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const maybe = <T>(x: T): T | null => (r() < 0.3 ? null : x);
  const tc = f.tracking[0]!;

  for (let i = 0; i < (opts.transactions ?? 120); i++) {
    const holder = pick(HOLDERS);
    const at = new Date(Date.parse(pick(DAYS)) - Math.floor(r() * 3) * 86_400_000).toISOString();
    const amount = (r() < 0.1 ? -1 : 1) * (1 + Math.floor(r() * 20000));
    const tracking = r() < 0.5 ? { [tc.categoryId]: pick(tc.options) } : {};
    await db.query(
      `${bump} INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, merchant_category, amount, currency, occurred_at,
         state, department_id, location_id, gl_account_id, tracking, change_seq)
       VALUES ($2, $1, $3, $4, $5, 'General', $6, $7, $8, $9, $10, $11, $12, $13::jsonb, ${SEQ})`,
      [f.businessId, randomUUID(), f.cards[holder], f.users[holder], pick(MERCHANTS), amount, pick(CURRENCIES), at, pick(STATES),
        maybe(pick(f.departments)), maybe(pick(f.locations)), maybe(pick(f.glAccounts.active)), JSON.stringify(tracking)],
    );
  }

  for (let i = 0; i < 40; i++) {
    const who = pick(HOLDERS);
    await db.query(
      `${bump} INSERT INTO reimbursements (id, business_id, user_id, type, status, merchant, amount, currency, transaction_date,
         department_id, gl_account_id, change_seq)
       VALUES ($2, $1, $3, 'OUT_OF_POCKET', $4, $5, $6, $7, $8::date, $9, $10, ${SEQ})`,
      [f.businessId, randomUUID(), f.users[who], pick(CLAIM_STATUSES), maybe(pick(MERCHANTS)), 1 + Math.floor(r() * 9000), pick(CURRENCIES),
        pick(DAYS).slice(0, 10), maybe(pick(f.departments)), maybe(pick(f.glAccounts.active))],
    );
  }

  const vendors = [randomUUID(), randomUUID()];
  for (const [i, id] of vendors.entries()) {
    await db.query(`${bump} INSERT INTO vendors (id, business_id, name, change_seq) VALUES ($2, $1, $3, ${SEQ})`,
      [f.businessId, id, `Report vendor ${i} ${f.businessId.slice(0, 6)}`]);
  }
  const bills: string[] = [];
  for (let i = 0; i < 30; i++) {
    const id = randomUUID();
    bills.push(id);
    const lines = Array.from({ length: 1 + Math.floor(r() * 3) }, () => ({
      amount: 1 + Math.floor(r() * 50000),
      gl: maybe(pick(f.glAccounts.active)), dept: maybe(pick(f.departments)), loc: maybe(pick(f.locations)),
      tracking: r() < 0.5 ? { [tc.categoryId]: pick(tc.options) } : {},
    }));
    // One bill with two lines on the same account and department: it counts once in that group.
    if (i === 0) lines.push({ ...lines[0]!, amount: 700 });
    const creator = i % 3 === 0 ? f.users.employee : f.users.admin;
    await db.query(
      `${bump} INSERT INTO bills (id, business_id, vendor_id, invoice_number, invoice_key, invoice_date, due_date, currency, amount, status,
         created_by, change_seq)
       VALUES ($2, $1, $3, $4, upper($4), $5::date, $5::date + 30, $6, $7, $8, $9, ${SEQ})`,
      [f.businessId, id, pick(vendors), `R-${i}-${id.slice(0, 4)}`, pick(DAYS).slice(0, 10), pick(CURRENCIES),
        lines.reduce((s, l) => s + l.amount, 0), pick(BILL_STATUSES), creator],
    );
    for (const [position, l] of lines.entries()) {
      await db.query(
        `INSERT INTO bill_line_items (id, bill_id, position, description, amount, gl_account_id, department_id, location_id, tracking)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
        [randomUUID(), id, position, `Line ${position}`, l.amount, l.gl, l.dept, l.loc, JSON.stringify(l.tracking)],
      );
    }
  }

  for (const role of Object.keys(f.cards) as FixtureRole[]) {
    await db.query(
      `${bump} UPDATE cards SET status = $3, created_at = $4, limit_amount = $5, limit_currency = $6, department_id = $7, location_id = $8,
         change_seq = ${SEQ} WHERE business_id = $1 AND id = $2`,
      [f.businessId, f.cards[role], pick(CARD_STATUSES), pick(DAYS), 1000 * (1 + Math.floor(r() * 50)), pick(['USD', 'EUR']),
        maybe(pick(f.departments)), maybe(pick(f.locations))],
    );
  }
  return { vendors, bills };
}
