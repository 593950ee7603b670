import { checkBulkBills } from '../../schema/bill-rules.ts';
import { featureFlagsOf } from '../auth/settings.ts';
import { refuse } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';

/**
 * The business's §3 `bulk_bill_creation_limit` (50 unless an owner or admin changed it in
 * Settings → Feature flags, 1–500) bounds every bulk bill call, pay-now included: more bills
 * refuse the whole call (REQUEST_7001, 422) in checkBulkBills' words, which name the limit.
 * The bills bulk bar reads the same flag and refuses before sending.
 */
export async function assertBulkBills(db: Queryable, businessId: string, ids: readonly string[]): Promise<void> {
  refuse(checkBulkBills(ids, (await featureFlagsOf(db, businessId)).bulk_bill_creation_limit));
}
