import { assessCharge, usualAmount, type NewCharge } from '../../schema/fraud-rules.ts';
import type { Queryable } from '../db/db.ts';
import { cardProfile } from '../domain/fraud.ts';
import type { DemoData } from './types.ts';

/**
 * The demo's held charge (issue 24): the demo employee's newest charge on an active card becomes
 * a suspicious one (a jeweller in France, far above what the card usually spends), held by the
 * same rules a simulated purchase meets, so the "Was this you?" banner shows on first sign-in.
 * Deterministic: the row, merchant and amount follow from the generated data. The charge keeps
 * its id, time and change seq (the row count and the seqs 1..M are the generator's; nothing was
 * synced yet, so the row needs no new seq).
 * Nothing is held when the employee has no such charge (a seed of 0 transactions) or the rules
 * would not hold it (a card without history): the demo never shows a hold the rules did not make.
 */
const HELD_MERCHANT = 'Bijouterie Royale';

export async function insertHeldCharge(tx: Queryable, data: DemoData): Promise<void> {
  const employee = data.accounts.find((a) => a.email.startsWith('employee@'));
  if (!employee) return;
  const [row] = await tx.query<{ id: string; card_id: string; currency: string; occurred_at: string }>(
    `SELECT t.id::text, t.card_id::text, t.currency, ll_iso(t.occurred_at) AS occurred_at
       FROM transactions t JOIN cards c ON c.id = t.card_id
      WHERE t.business_id = $1 AND t.user_id = $2 AND c.status = 'ACTIVE' AND t.state IN ('PENDING', 'CLEARED') AND t.amount > 0 AND NOT t.deleted
      ORDER BY t.occurred_at DESC, t.id LIMIT 1`,
    [data.business.id, employee.user_id],
  );
  if (!row) return;
  // Out of the card's history first (a held charge is not history), then judged against it.
  await tx.query(`UPDATE transactions SET fraud_status = 'FLAGGED' WHERE id = $1`, [row.id]);
  const card = { id: row.card_id, business_id: data.business.id };
  const probe: NewCharge = {
    merchant_name: HELD_MERCHANT, merchant_category: 'Jewellery', merchant_country: 'FR', amount: 0, currency: row.currency, occurred_at: row.occurred_at,
  };
  const profile = await cardProfile(tx, card, probe);
  const usual = usualAmount(profile.recent, row.currency) ?? 0;
  const charge = { ...probe, amount: Math.max(81_240, Math.ceil((usual * 6) / 100) * 100 + 40) };
  const verdict = assessCharge(charge, profile);
  if (!verdict.flagged) {
    await tx.query('UPDATE transactions SET fraud_status = NULL WHERE id = $1', [row.id]);
    return;
  }
  await tx.query(
    `UPDATE transactions SET merchant_name = $2, merchant_category = $3, merchant_country = $4, amount = $5, state = 'PENDING',
            fraud_reasons = $6::text[]
      WHERE id = $1`,
    [row.id, charge.merchant_name, charge.merchant_category, charge.merchant_country, charge.amount, verdict.reasons],
  );
}
