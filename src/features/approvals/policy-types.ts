import { z } from 'zod';
import type { PolicyObjectType } from '../../../schema/approval-policy.ts';

/**
 * Issue 29: the six §7 policy types an admin edits on /approvals/policy (?type=…), each with the
 * words its page uses. Travel's out-of-policy bookings keep their own chain (issue 27) and are not
 * edited here.
 */
export const EDITED_POLICY_TYPES = [
  { type: 'bill', tab: 'Bills', title: 'Bill approval policy', items: 'bills', item: 'bill', submitted: 'submitted' },
  { type: 'card', tab: 'Cards', title: 'Card request approval policy', items: 'card requests', item: 'card request', submitted: 'requested' },
  { type: 'reimbursement', tab: 'Reimbursements', title: 'Reimbursement approval policy', items: 'claims', item: 'claim', submitted: 'submitted' },
  { type: 'spend_request', tab: 'Spend requests', title: 'Spend request approval policy', items: 'spend requests', item: 'spend request', submitted: 'submitted' },
  { type: 'vendor-payment', tab: 'Vendor payments', title: 'Vendor payment approval policy', items: 'vendor payments', item: 'payment', submitted: 'asked for' },
  { type: 'payee', tab: 'Payees', title: 'Payee approval policy', items: 'new payees and bank details', item: 'payee change', submitted: 'made' },
] as const satisfies readonly { type: PolicyObjectType; tab: string; title: string; items: string; item: string; submitted: string }[];

export type EditedPolicyType = (typeof EDITED_POLICY_TYPES)[number]['type'];
export type PolicyTypeWords = (typeof EDITED_POLICY_TYPES)[number];

const typeSchema = z.enum(EDITED_POLICY_TYPES.map((t) => t.type) as [EditedPolicyType, ...EditedPolicyType[]]);

/** `?type=` of /approvals/policy: one of the six; absent (or anything else) means bills, the page before issue 29. */
export function parsePolicySearch(raw: Record<string, unknown>): { type?: EditedPolicyType } {
  const parsed = typeSchema.safeParse(raw.type);
  return parsed.success ? { type: parsed.data } : {};
}

export const wordsOf = (type: EditedPolicyType): PolicyTypeWords => EDITED_POLICY_TYPES.find((t) => t.type === type)!;
