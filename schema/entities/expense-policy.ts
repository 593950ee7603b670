import { z } from 'zod';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';
import { expensePolicyRulesSchema, expensePolicyScopeSchema } from '../expense-policy.ts';

/**
 * Issue 29: an expense policy — what the business allows (schema/expense-policy.ts holds the rules
 * and the one evaluator). Reference data every member mirrors (`refs`, visibility `business`): the
 * worker evaluates each card transaction and claim offline for the missing-items wizard with the
 * same function the server runs. Admins write them (`/v1/auth/expense-policies`).
 */
export const expensePolicySchema = z.object({
  id: uuid, // expense_policy_id
  name: z.string().min(1).max(120),
  description: z.string().max(2000).nullable(),
  scope: expensePolicyScopeSchema,
  rules: expensePolicyRulesSchema,
  enabled: z.boolean(),
  created_by: uuid,
  created_at: isoDateTime,
  updated_by: uuid.nullable(),
  ...mirroredFields,
});
export type ExpensePolicy = z.infer<typeof expensePolicySchema>;

/** Table `expense_policies` (migration 051). The evaluator's order is oldest first (`created_at`, `id`). */
export const expensePolicyEntity = defineReference({
  name: 'expense_policies', schema: expensePolicySchema, visibility: 'business', searchText: ['name'],
});
