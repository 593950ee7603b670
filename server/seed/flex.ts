import type { Queryable } from '../db/db.ts';
import { DEFAULT_FLEX_LIMIT, FLEX_CURRENCY } from '../domain/flex/settings.ts';
import { FLEX_OFFER_TTL_MS, flexTerms, type FlexTermDays } from '../domain/flex/terms.ts';
import { bulkInsert, cols } from './bulk-insert.ts';
import { Rng } from './prng.ts';

/**
 * Issue 30: the demo's flex, so /treasury/flex is not empty for a newcomer. The business is
 * onboarded (limit 250,000.00 USD, its FLEX_LINE account) and one of its paid bills was paid with
 * flex: an ACCEPTED offer, a 90-day record, its SETTLED payment's method FLEX, and the three
 * installments — each due before today PAID (FLEX_INSTALLMENT posted on its due day), the rest
 * SCHEDULED for the installment job. The bill is the PAID one whose single settled payment is
 * closest to 45 days old (between 31 and 59 days: the first installment is paid, two are left);
 * with no such bill (a demo without bills) only the onboarding is seeded.
 *
 * Called by seed/treasury.ts before it posts the bill payments (the FLEX payment is then left to
 * the draw), with its own random stream so the rest of the treasury seed stays as it was.
 */
export const FLEX_DEMO_TERM: FlexTermDays = 90;

export interface FlexDemo {
  /** The bill payment flex paid (treasury.ts posts no ACH send/settle for it), or null. */
  paymentId: string | null;
  /** The ledger movements to post with the others: the draw and each installment paid. */
  moves: FlexMove[];
  /** Inserts the flex rows; run after the movements are in (installments name their entries). */
  insertRows(tx: Queryable, onboardedAt: Date): Promise<void>;
}

export type FlexMove = {
  id: string; kind: string; key: string; currency: string; day: string; at: string; memo: string;
  source_type: string; source_id: string; lines: { account: string; amount: number }[];
};

type Candidate = { bill_id: string; payment_id: string; amount: string; invoice_number: string; paid_at: string };

const DAY = 86_400_000;

async function pickBill(tx: Queryable, businessId: string, now: Date): Promise<Candidate | null> {
  const target = new Date(now.getTime() - 45 * DAY).toISOString();
  const [bill] = await tx.query<Candidate>(
    `SELECT b.id::text AS bill_id, p.id::text AS payment_id, b.amount::text, b.invoice_number, ll_iso(p.settled_at) AS paid_at
       FROM bills b JOIN bill_payments p ON p.bill_id = b.id AND p.business_id = b.business_id
      WHERE b.business_id = $1 AND b.status = 'PAID' AND b.currency = $2 AND b.amount BETWEEN 100 AND $3 AND NOT b.deleted
        AND p.status = 'SETTLED' AND p.method = 'ACH' AND p.settled_at BETWEEN $4::timestamptz - interval '59 days' AND $4::timestamptz - interval '31 days'
        AND (SELECT count(*) FROM bill_payments q WHERE q.bill_id = b.id) = 1
      ORDER BY abs(extract(epoch FROM p.settled_at - $5::timestamptz)), b.id LIMIT 1`,
    [businessId, FLEX_CURRENCY, DEFAULT_FLEX_LIMIT, now.toISOString(), target],
  );
  return bill ?? null;
}

export async function planFlexDemo(
  tx: Queryable, p: { businessId: string; adminId: string | null; now: Date; seed: number; operating: string; line: string; vendors: string; fees: string },
): Promise<FlexDemo> {
  const { businessId, now } = p;
  const rng = new Rng(p.seed, `${businessId}\u0000flex`);
  const bill = p.adminId ? await pickBill(tx, businessId, now) : null;
  const settings = (onboardedAt: Date) => tx.query(
    `INSERT INTO flex_settings (business_id, status, limit_amount, currency, ap_clerks_can_flex, line_account_id, onboarded_at, onboarded_by, updated_at)
     VALUES ($1, 'ACTIVE', $2, $3, false, $4, $5, $6, $5)`,
    [businessId, DEFAULT_FLEX_LIMIT, FLEX_CURRENCY, p.line, onboardedAt.toISOString(), p.adminId],
  );
  if (!bill) return { paymentId: null, moves: [], insertRows: async (_tx, onboardedAt) => { await settings(onboardedAt); } };

  const amount = Number(bill.amount);
  const paidAt = bill.paid_at;
  const offerAt = new Date(Date.parse(paidAt) - 20 * 60_000).toISOString();
  const terms = flexTerms(amount, offerAt.slice(0, 10));
  const term = terms.find((t) => t.term_days === FLEX_DEMO_TERM)!;
  const [offerId, recordId] = [rng.uuid(), rng.uuid()];
  const today = now.toISOString().slice(0, 10);
  const moves: FlexMove[] = [{
    id: rng.uuid(), kind: 'FLEX_DRAW', key: `flex:${recordId}:draw`, currency: FLEX_CURRENCY, day: paidAt.slice(0, 10), at: paidAt,
    memo: `Flex: bill ${bill.invoice_number}`, source_type: 'flex_record', source_id: recordId,
    lines: [{ account: p.line, amount: -amount }, { account: p.vendors, amount }],
  }];
  const installments = term.installments.map((inst, i) => {
    const id = rng.uuid();
    if (inst.due_date >= today) return { id, number: i + 1, ...inst, status: 'SCHEDULED', paid_at: null, entry_id: null, attempts: 0 };
    const at = `${inst.due_date}T06:00:00.000Z`;
    const lines = [{ account: p.operating, amount: -(inst.principal + inst.fee) }, { account: p.line, amount: inst.principal }];
    if (inst.fee > 0) lines.push({ account: p.fees, amount: inst.fee });
    const move: FlexMove = {
      id: rng.uuid(), kind: 'FLEX_INSTALLMENT', key: `flex-installment:${id}:1`, currency: FLEX_CURRENCY, day: inst.due_date, at,
      memo: 'Flex installment', source_type: 'flex_installment', source_id: id, lines,
    };
    moves.push(move);
    return { id, number: i + 1, ...inst, status: 'PAID', paid_at: at, entry_id: move.id, attempts: 1 };
  });
  const repaid = installments.every((i) => i.status === 'PAID') ? installments.at(-1)!.paid_at : null;

  async function insertRows(t: Queryable, onboardedAt: Date): Promise<void> {
    await settings(onboardedAt);
    // The bill's one SETTLED attempt was flex's: a FLEX payment never changes status afterwards (trigger bill_payments_flex_fixed).
    await t.query(`UPDATE bill_payments SET method = 'FLEX' WHERE id = $1`, [bill!.payment_id]);
    await t.query(
      `INSERT INTO flex_offers (id, business_id, bill_id, amount, currency, terms, status, expires_at, created_by, created_at, accepted_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, 'ACCEPTED', $7, $8, $9, $10)`,
      [offerId, businessId, bill!.bill_id, amount, FLEX_CURRENCY, JSON.stringify(terms),
        new Date(Date.parse(offerAt) + FLEX_OFFER_TTL_MS).toISOString(), p.adminId, offerAt, paidAt],
    );
    await t.query(
      `INSERT INTO flex_records (id, business_id, bill_id, offer_id, bill_payment_id, amount, fee, currency, term_days, status, accepted_by, created_at, repaid_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [recordId, businessId, bill!.bill_id, offerId, bill!.payment_id, amount, term.fee, FLEX_CURRENCY, FLEX_DEMO_TERM,
        repaid ? 'REPAID' : 'ACTIVE', p.adminId, paidAt, repaid],
    );
    await bulkInsert(t, 'flex_installments', cols(
      'id:uuid', 'business_id:uuid', 'record_id:uuid', 'number:integer', 'due_date:date', 'principal:bigint', 'fee:bigint', 'status:text',
      'attempts:integer', 'paid_at:timestamptz', 'entry_id:uuid',
    ), installments.map((i) => ({
      id: i.id, business_id: businessId, record_id: recordId, number: i.number, due_date: i.due_date, principal: i.principal, fee: i.fee,
      status: i.status, attempts: i.attempts, paid_at: i.paid_at, entry_id: i.entry_id,
    })));
  }
  return { paymentId: bill.payment_id, moves, insertRows };
}
