import type { z } from 'zod';
import {
  createExpensePolicy, deleteExpensePolicy, getPolicyCompliance, sendMissingItemReminders, updateExpensePolicy,
  type ComplianceAnswer, type complianceQuerySchema, type expensePolicyPatchSchema,
} from '../../schema/api/calls-expense-policies.ts';
import type { ExpensePolicy } from '../../schema/entities/expense-policy.ts';
import {
  evaluatePolicies, itemKey, policyItemFromReimbursement, policyItemFromTransaction, type ExpensePolicyInput, type PolicyItem, type Violation,
} from '../../schema/expense-policy.ts';
import { evaluatorOrder, missingItemsOf, policyPeople, type MissingItemView } from '../missing-items.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi } from '../online.ts';
import type { WorkerContext } from '../worker-context.ts';

export type { MissingItemView };
export type ExpensePolicyPatch = z.input<typeof expensePolicyPatchSchema>;
export type ComplianceQuery = z.input<typeof complianceQuerySchema>;
export type { ComplianceAnswer };

/** Refused before any request: policies are written, compliance counted and reminders sent by the server. */
export const POLICY_OFFLINE = offlineFailure('You’re offline. Expense policies, compliance and reminders need a connection: nothing was sent. The missing-items list still works offline.');

const asPolicy = (d: Omit<ExpensePolicy, 'change_seq'> & { change_seq?: number }) => ({ policy: { ...d, change_seq: d.change_seq ?? 0 } as ExpensePolicy });

/**
 * Issue 29 (schema/api/calls-expense-policies.ts), the online-only part: admins create, change
 * and delete expense policies (the feed brings them to every mirror), read compliance and send
 * reminders. Offline → POLICY_OFFLINE. Reading policies is `referenceData().expense_policies`.
 */
export const EXPENSE_POLICY_ONLINE = onlineDomain(POLICY_OFFLINE, {
  /** 201; POLICY_7001 (contradictions, with fields), 7002 (not an admin), 7003 (too many). */
  createExpensePolicy: via(createExpensePolicy, (body: ExpensePolicyInput) => ({ body }), asPolicy),
  updateExpensePolicy: via(updateExpensePolicy, (expense_policy_id: string, patch: ExpensePolicyPatch) => ({ params: { expense_policy_id }, body: patch }), asPolicy),
  deleteExpensePolicy: via(deleteExpensePolicy, (expense_policy_id: string) => ({ params: { expense_policy_id } })),
  /** Per person or department over a range (default: the last 30 days). */
  policyCompliance: via(getPolicyCompliance, (query: ComplianceQuery) => ({ query: query as z.output<typeof complianceQuerySchema> }), (compliance: ComplianceAnswer) => ({ compliance })),
  /** One mail per person and day; who was skipped says why. */
  remindMissingItems: via(sendMissingItemReminders, (user_ids: string[]) => ({ body: { user_ids } }), (answer) => ({ answer })),
});

/** What the mirror answers about policies (offline too). */
export interface MissingItemsApi {
  /**
   * The signed-in person's missing items as shown (local edits applied), newest first: what
   * GET /users/current/missing-items answers, from the mirror. Read again on a data change.
   */
  missingItems(): Promise<{ items: MissingItemView[]; total: number }>;
  /** Every violation of one transaction or claim (fixable or not), for the drawers' Policy section. */
  itemViolations(object_type: PolicyItem['object_type'], id: string): Promise<Violation[]>;
}

export type PolicyApi = OnlineApi<typeof EXPENSE_POLICY_ONLINE> & MissingItemsApi;

const ALL = Number.MAX_SAFE_INTEGER;

export function policyHandlers(ctx: WorkerContext): PolicyApi {
  return {
    ...bindDomain(ctx, EXPENSE_POLICY_ONLINE),
    async missingItems() {
      const rt = ctx.host.runtime;
      const me = ctx.stored?.session.user.id;
      if (!rt || !me) return { items: [], total: 0 };
      await rt.ready;
      const refs = rt.referenceData();
      if (refs.expense_policies.length === 0) return { items: [], total: 0 };
      const [txns, claims] = await Promise.all([
        rt.query('transactions', { filter: { user_ids: [me], states: ['PENDING', 'CLEARED'] }, sort: 'occurred_desc', offset: 0, limit: ALL }),
        rt.query('reimbursements', { filter: { user_ids: [me] }, sort: 'date_desc', offset: 0, limit: ALL }),
      ]);
      const items = missingItemsOf({ userId: me, transactions: txns.rows, claims: claims.rows, policies: refs.expense_policies, users: refs.users });
      return { items, total: items.length };
    },
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
