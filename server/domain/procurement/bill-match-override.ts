import { matchReasonsText, type PoMatch } from '../../../schema/bill-match.ts';
import type { Bill } from '../../../schema/entities/bill.ts';
import { isAdmin } from '../../../schema/roles.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { findBill } from '../bills.ts';
import { writeMirrored } from '../collections.ts';

/**
 * An admin lets a MISMATCHED bill be paid (`POST …/bill-pay/:bill_uuid/po-match/override`): the
 * match becomes OVERRIDDEN with who, why and when, keeping the reasons it overrode (a later
 * reason it did not see reopens it: `keepOverride`). Admins only (PROCUREMENT_7014, before any
 * lookup); another business's bill 404; a bill that is not MISMATCHED is refused naming its state.
 * The call's audit row (http/register.ts) carries the bill, the reason and the reasons overridden.
 */
export async function overrideBillMatch(
  tx: Queryable, user: ActingUser, billId: string, reason: string, now: Date,
  note: (detail: Record<string, unknown>) => void,
): Promise<Bill> {
  if (!isAdmin(user)) throw new ApiError('PROCUREMENT_7014');
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const bill = await findBill(tx, user.business_id, billId, true);
    const match = bill.po_match;
    if (!match) throw new ApiError('REQUEST_7001', 'This bill names no purchase order: there is no match to override.');
    if (match.status !== 'MISMATCHED') {
      throw new ApiError('REQUEST_7001', `This bill's match is ${match.status === 'MATCHED' ? 'matched' : 'already overridden'}: there is nothing to override.`);
    }
    const at = now.toISOString();
    const next: PoMatch = { ...match, status: 'OVERRIDDEN', override: { by: user.id, reason, at } };
    await tx.query('UPDATE bills SET po_match = $3::jsonb, change_seq = $4, updated_at = $5 WHERE business_id = $1 AND id = $2',
      [user.business_id, billId, JSON.stringify(next), seqs.last, at]);
    note({ po_match_override: { bill_id: billId, reason, overridden: matchReasonsText(match) } });
    return findBill(tx, user.business_id, billId);
  });
}
