import { evaluatePolicies, evaluatorOrder, itemKey, policyItemFromReimbursement, policyItemFromTransaction, type PolicyItem } from '../../schema/expense-policy.ts';
import { missingItemsOf, policyPeople, type MissingItemView } from '../missing-items.ts';
import type { MirrorRuntime } from '../mirror-runtime.ts';
import { bindDomain } from '../online.ts';
import { pacedRead } from '../paced-read.ts';
import type { WorkerContext } from '../worker-context.ts';
import { EXPENSE_POLICY_ONLINE, type PolicyApi } from './policies.ts';

/**
 * Issue 29's handlers (the API is policies.ts, a leaf api.ts imports: this file reads the
 * context, which would close a type loop through api.ts): the online calls bound to the context,
 * and the missing items and violations computed from the open mirror.
 */
const ALL = Number.MAX_SAFE_INTEGER;

/** The person's missing items from the open mirror, rows as shown (local edits applied). */
export async function missingItemsFrom(rt: MirrorRuntime, me: string): Promise<{ items: MissingItemView[]; total: number }> {
  await rt.ready;
  const refs = rt.referenceData();
  if (refs.expense_policies.length === 0) return { items: [], total: 0 };
  const [txns, claims] = await Promise.all([
    rt.query('transactions', { filter: { user_ids: [me], states: ['PENDING', 'CLEARED'] }, sort: 'occurred_desc', offset: 0, limit: ALL }),
    rt.query('reimbursements', { filter: { user_ids: [me] }, sort: 'date_desc', offset: 0, limit: ALL }),
  ]);
  const items = missingItemsOf({ userId: me, transactions: txns.rows, claims: claims.rows, policies: refs.expense_policies, users: refs.users });
  return { items, total: items.length };
}

export function policyHandlers(ctx: WorkerContext): PolicyApi {
  // Asked on every data change (the nav's badge): one read at a time, paced by its cost (paced-read.ts).
  const missingItems = pacedRead(async () => {
    const rt = ctx.host.runtime;
    const me = ctx.businessUserId();
    return rt && me ? missingItemsFrom(rt, me) : { items: [], total: 0 };
  });
  return {
    ...bindDomain(ctx, EXPENSE_POLICY_ONLINE),
    missingItems,
    async itemViolations(object_type, id) {
      const rt = ctx.host.runtime;
      if (!rt) return [];
      const refs = rt.referenceData();
      if (refs.expense_policies.length === 0) return [];
      const items: PolicyItem[] = [];
      if (object_type === 'transaction') {
        const t = await rt.get('transactions', id);
        const item = t && policyItemFromTransaction(t);
        if (!item) return [];
        // Per-day caps sum the person's items of that day.
        await rt.ready;
        const day = await rt.query('transactions', {
          filter: { user_ids: [item.user_id], states: ['PENDING', 'CLEARED'], from: item.date, to: item.date }, sort: 'occurred_desc', offset: 0, limit: ALL,
        });
        for (const row of day.rows) {
          const other = row.id === id ? null : policyItemFromTransaction(row);
          if (other) items.push(other);
        }
        items.push(item);
      } else {
        const c = await rt.get('reimbursements', id);
        const item = c && policyItemFromReimbursement(c);
        if (!item) return [];
        items.push(item);
      }
      return evaluatePolicies(items, evaluatorOrder(refs.expense_policies), policyPeople(refs.users)).get(itemKey({ object_type, id })) ?? [];
    },
  };
}
