/**
 * What the seed tests hold every seeded business to: its rows carry change_seq 1..M, each number
 * once across the mirrored tables, and the business counter stands at M (so the first write after
 * the seed takes M + 1 and a mirror's high water never skips a row).
 */
import { expect } from 'vitest';
import { highWater } from '../db/change-seq.ts';
import type { Queryable } from '../db/db.ts';
import { COLLECTIONS } from '../domain/collections.ts';

/** Every mirrored table (the registry's), so a new collection is checked without editing a list. */
export const MIRRORED_TABLES: readonly string[] = [...new Set(Object.values(COLLECTIONS).map((c) => c.table))];

export async function expectSeqsOneToM(db: Queryable, businessId: string, maxChangeSeq: number, tables: readonly string[]): Promise<void> {
  // change_seq IS NOT NULL: ledger_accounts holds the wallet (mirrored) and the ledger's system accounts (never on the wire, no seq).
  const union = tables.map((table) => `SELECT change_seq FROM ${table} WHERE business_id = $1 AND change_seq IS NOT NULL`).join(' UNION ALL ');
  const [range] = await db.query<{ lo: number; hi: number; n: number; distinct: number }>(
    `SELECT min(change_seq) AS lo, max(change_seq) AS hi, count(*) AS n, count(DISTINCT change_seq) AS distinct FROM (${union}) s`,
    [businessId],
  );
  expect(range).toEqual({ lo: 1, hi: maxChangeSeq, n: maxChangeSeq, distinct: maxChangeSeq });
  expect(await highWater(db, businessId)).toBe(maxChangeSeq);
}
