import { matchReceipt, matchWindow, type MatchResult, type ReceiptFields } from '../schema/receipt-matching.ts';
import type { InboxReceipt, MatchedTransaction, ReceiptSuggestion } from './contracts/receipts.ts';
import type { RowView } from './contracts/views.ts';
import type { MirrorRuntime } from './mirror-runtime.ts';
import type { StoredReceipt } from './receipt-store.ts';

/**
 * Receipt matching over the local mirror (issue 9 §2): candidates come from the transactions
 * engine's own filter (the owner's PENDING/CLEARED rows of that exact amount, in the ±3 day
 * window, without a receipt; rows as shown, commands applied), then the pure matcher in
 * schema/receipt-matching.ts ranks them. No index of its own.
 */

type TxnRow = RowView<'transactions'>;

const matched = (t: TxnRow): MatchedTransaction => ({
  id: t.id, merchant_name: t.merchant_name, amount: t.amount, currency: t.currency, occurred_at: t.occurred_at,
});

/** The matcher's answer for a receipt's fields over `ownerId`'s candidate transactions. */
export async function matchOverMirror(
  rt: MirrorRuntime, ownerId: string, fields: ReceiptFields,
): Promise<MatchResult & { suggestions: ReceiptSuggestion[] }> {
  if (!fields.amount || !fields.date) return { candidates: [], exact: false, suggestions: [] };
  const { from, to } = matchWindow(fields.date);
  const page = await rt.query('transactions', {
    filter: {
      user_ids: [ownerId], states: ['PENDING', 'CLEARED'], amount_min: fields.amount.minor, amount_max: fields.amount.minor,
      from, to, missing_receipt: true,
    },
    sort: 'occurred_desc', offset: 0, limit: 500,
  });
  const byId = new Map(page.rows.map((r) => [r.id, r]));
  const result = matchReceipt(fields, page.rows);
  return { ...result, suggestions: result.candidates.map((c) => ({ ...c, transaction: matched(byId.get(c.transaction_id)!) })) };
}

/**
 * Which visible transaction holds each receipt (by client or server id) and under which id its
 * row names it (a detach must name the id the row holds).
 */
export async function attachments(rt: MirrorRuntime, receipts: readonly StoredReceipt[]): Promise<Map<string, { txn: TxnRow; as: string }>> {
  const out = new Map<string, { txn: TxnRow; as: string }>();
  if (receipts.length === 0) return out;
  const owner = new Map<string, string>();
  for (const r of receipts) {
    owner.set(r.id, r.id);
    if (r.server_id) owner.set(r.server_id, r.id);
  }
  const page = await rt.query('transactions', { filter: { missing_receipt: false }, sort: 'occurred_desc', offset: 0, limit: Number.MAX_SAFE_INTEGER });
  for (const txn of page.rows) {
    for (const rid of txn.receipt_ids) {
      const local = owner.get(rid);
      if (local && !out.has(local)) out.set(local, { txn, as: rid });
    }
  }
  return out;
}

/** The inbox's view of receipts: attachment, fields and fresh suggestions for the unattached. */
export async function inboxOf(
  rt: MirrorRuntime, ownerId: string, receipts: readonly StoredReceipt[],
  viewOf: (id: string, r: StoredReceipt) => Omit<InboxReceipt, 'extracted' | 'match' | 'attached_to' | 'suggestions'>,
): Promise<InboxReceipt[]> {
  const held = await attachments(rt, receipts);
  return Promise.all(receipts.map(async (r) => {
    const at = held.get(r.id);
    const suggestions = !at && r.extracted ? (await matchOverMirror(rt, ownerId, r.extracted)).suggestions : [];
    return {
      ...viewOf(r.id, r),
      extracted: r.extracted ?? null,
      match: r.match ?? null,
      attached_to: at ? matched(at.txn) : null,
      suggestions,
    };
  }));
}
