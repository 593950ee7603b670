import { randomUUID } from 'node:crypto';
import {
  MAX_MILEAGE_RATE_MILLS, type RateCreateBody, type RatePatchBody,
} from '../../schema/api/calls-reimbursement-rates.ts';
import { businessRatesOf, type ReimbursementRate } from '../../schema/entities/reimbursement-rate.ts';
import type { BusinessRates } from '../../schema/reimbursement-rules.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { COLLECTIONS, writeMirrored } from './collections.ts';

/**
 * A business's reimbursement rates (issue 9 §3): per-diem locations and mileage overrides,
 * mirrored reference data (every write takes a seq through writeMirrored; a delete is a
 * tombstone). The claim rules read them through `businessRates` (schema/reimbursement-rules.ts).
 * Rows of another business answer 404 like unknown ones.
 */
const DOC = COLLECTIONS.reimbursement_rates.docSql;

/** The live rates of a business, as the rules take them. */
export async function businessRates(db: Queryable, businessId: string): Promise<BusinessRates> {
  const rows = await db.query<{ doc: ReimbursementRate }>(
    `SELECT ${DOC} AS doc FROM reimbursement_rates r WHERE r.business_id = $1 AND NOT r.deleted`,
    [businessId],
  );
  return businessRatesOf(rows.map((r) => r.doc));
}

type Fields = { kind: 'PER_DIEM' | 'MILEAGE'; name: string | null; year: number | null; rate: number; currency: string };

/** A live row of the same name (per diem, case-insensitive, trimmed) or year (mileage) → 422. */
async function assertFree(tx: Queryable, businessId: string, f: Fields, exceptId: string | null): Promise<void> {
  const rows = f.kind === 'PER_DIEM'
    ? await tx.query(
      `SELECT 1 FROM reimbursement_rates WHERE business_id = $1 AND kind = 'PER_DIEM' AND NOT deleted
          AND lower(btrim(name)) = lower(btrim($2)) AND id IS DISTINCT FROM $3`,
      [businessId, f.name, exceptId],
    )
    : await tx.query(
      `SELECT 1 FROM reimbursement_rates WHERE business_id = $1 AND kind = 'MILEAGE' AND NOT deleted
          AND year = $2 AND id IS DISTINCT FROM $3`,
      [businessId, f.year, exceptId],
    );
  if (rows.length === 0) return;
  throw f.kind === 'PER_DIEM'
    ? validationError({ name: `A per-diem location named '${f.name}' already exists.` })
    : validationError({ year: `A mileage rate for ${f.year} already exists.` });
}

function checkKind(f: Fields): void {
  if (f.kind === 'MILEAGE' && f.rate > MAX_MILEAGE_RATE_MILLS) {
    throw validationError({ rate: `rate must be at most ${MAX_MILEAGE_RATE_MILLS} (mills per mile)` });
  }
  if (f.kind === 'MILEAGE' && f.currency !== 'USD') throw validationError({ currency: 'currency must be USD for a mileage rate' });
}

export async function createRate(tx: Queryable, businessId: string, body: RateCreateBody): Promise<ReimbursementRate> {
  const f: Fields = body.kind === 'PER_DIEM'
    ? { kind: 'PER_DIEM', name: body.name, year: null, rate: body.rate, currency: body.currency }
    : { kind: 'MILEAGE', name: null, year: body.year, rate: body.rate, currency: 'USD' };
  checkKind(f);
  return writeMirrored(tx, businessId, 1, async ({ seqs }) => {
    await assertFree(tx, businessId, f, null);
    const rows = await tx.query<{ doc: ReimbursementRate }>(
      `INSERT INTO reimbursement_rates AS r (id, business_id, kind, name, year, rate, currency, change_seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${DOC} AS doc`,
      [randomUUID(), businessId, f.kind, f.name, f.year, f.rate, f.currency, seqs.last],
    );
    return rows[0]!.doc;
  });
}

/** A live row of the business, locked; anything else (another business's too) is 404. */
async function lockRate(tx: Queryable, businessId: string, id: string): Promise<ReimbursementRate> {
  const rows = await tx.query<{ doc: ReimbursementRate }>(
    `SELECT ${DOC} AS doc FROM reimbursement_rates r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted FOR UPDATE`,
    [businessId, id],
  );
  if (!rows[0]) throw new ApiError('REQUEST_7004');
  return rows[0].doc;
}

export async function updateRate(tx: Queryable, businessId: string, id: string, patch: RatePatchBody): Promise<ReimbursementRate> {
  return writeMirrored(tx, businessId, 1, async ({ seqs }) => {
    const current = await lockRate(tx, businessId, id);
    const foreign = current.kind === 'PER_DIEM' ? ['year'] : ['name'];
    const errors: Record<string, string> = {};
    for (const key of foreign) {
      if (key in patch) errors[key] = `${key} cannot be set on a ${current.kind === 'PER_DIEM' ? 'per-diem location' : 'mileage rate'}`;
    }
    if (Object.keys(errors).length > 0) throw validationError(errors);
    const f: Fields = {
      kind: current.kind, name: patch.name ?? current.name, year: patch.year ?? current.year,
      rate: patch.rate ?? current.rate, currency: patch.currency ?? current.currency,
    };
    checkKind(f);
    await assertFree(tx, businessId, f, id);
    const rows = await tx.query<{ doc: ReimbursementRate }>(
      `UPDATE reimbursement_rates r SET name = $3, year = $4, rate = $5, currency = $6, change_seq = $7, updated_at = now()
        WHERE r.business_id = $1 AND r.id = $2 RETURNING ${DOC} AS doc`,
      [businessId, id, f.name, f.year, f.rate, f.currency, seqs.last],
    );
    return rows[0]!.doc;
  });
}

export async function deleteRate(tx: Queryable, businessId: string, id: string): Promise<ReimbursementRate> {
  return writeMirrored(tx, businessId, 1, async ({ seqs }) => {
    await lockRate(tx, businessId, id);
    const rows = await tx.query<{ doc: ReimbursementRate }>(
      `UPDATE reimbursement_rates r SET deleted = true, change_seq = $3, updated_at = now()
        WHERE r.business_id = $1 AND r.id = $2 RETURNING ${DOC} AS doc`,
      [businessId, id, seqs.last],
    );
    return rows[0]!.doc;
  });
}
