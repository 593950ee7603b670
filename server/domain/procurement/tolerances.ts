import { DEFAULT_MATCH_TOLERANCES, type MatchTolerances } from '../../../schema/bill-match.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * The business's three-way match tolerances (issue 28, table `match_tolerances`): a business that
 * never saved any matches with DEFAULT_MATCH_TOLERANCES (price ±2 %, quantity exact). The match
 * reads them through `matchTolerancesOf`; the settings calls read and write them (who may is the
 * route's check: bill managers read, admins write).
 */
type Row = { price_tolerance_percent: string | number; quantity_tolerance_percent: string | number };
// numeric arrives as text from the drivers: the wire wants numbers.
const toWire = (r: Row): MatchTolerances => ({
  price_tolerance_percent: Number(r.price_tolerance_percent),
  quantity_tolerance_percent: Number(r.quantity_tolerance_percent),
});

export async function matchTolerancesOf(db: Queryable, businessId: string): Promise<MatchTolerances> {
  const [row] = await db.query<Row>(
    'SELECT price_tolerance_percent, quantity_tolerance_percent FROM match_tolerances WHERE business_id = $1',
    [businessId],
  );
  return row ? toWire(row) : { ...DEFAULT_MATCH_TOLERANCES };
}

/** Replaces the business's tolerances (one upsert: atomic on its own). */
export async function saveMatchTolerances(db: Queryable, businessId: string, t: MatchTolerances): Promise<MatchTolerances> {
  const [row] = await db.query<Row>(
    `INSERT INTO match_tolerances (business_id, price_tolerance_percent, quantity_tolerance_percent) VALUES ($1, $2, $3)
     ON CONFLICT (business_id) DO UPDATE
       SET price_tolerance_percent = EXCLUDED.price_tolerance_percent, quantity_tolerance_percent = EXCLUDED.quantity_tolerance_percent
     RETURNING price_tolerance_percent, quantity_tolerance_percent`,
    [businessId, t.price_tolerance_percent, t.quantity_tolerance_percent],
  );
  return toWire(row!);
}
