import type { z } from 'zod';
import {
  createExpensePolicy, deleteExpensePolicy, getPolicyCompliance, sendMissingItemReminders, updateExpensePolicy,
  type ComplianceAnswer, type complianceQuerySchema, type expensePolicyPatchSchema,
} from '../../schema/api/calls-expense-policies.ts';
import type { ExpensePolicy } from '../../schema/entities/expense-policy.ts';
import type { ExpensePolicyInput, PolicyItem, Violation } from '../../schema/expense-policy.ts';
import type { MissingItemView } from '../missing-items.ts';
import { offlineFailure, onlineDomain, via, type OnlineApi } from '../online.ts';

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
  /**
   * `baseSeq`: the policy's `change_seq` as the editor opened it, sent as If-Match; a field another
   * admin changed since answers 409 CONFLICT with the details (nothing applied).
   */
  updateExpensePolicy: via(updateExpensePolicy, (expense_policy_id: string, patch: ExpensePolicyPatch, baseSeq?: number) =>
    ({ params: { expense_policy_id }, body: patch, ...(baseSeq !== undefined ? { ifMatch: baseSeq } : {}) }), asPolicy),
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

/** The domain's API (a leaf for api.ts: the handlers that read the mirror are in policy-handlers.ts). */
export type PolicyApi = OnlineApi<typeof EXPENSE_POLICY_ONLINE> & MissingItemsApi;
