import { z } from 'zod';
import { callGroup } from './call-group.ts';
import { expensePolicySchema } from '../entities/expense-policy.ts';
import { expensePolicyInputSchema, VIOLATION_CODES, violationSchema } from '../expense-policy.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';

/**
 * Issue 29, expense policies (§7 "Integrations and other": expense policies, DELETE
 * expense-policies/{policy}) and the missing-items wizard (§6 scopes `missing-items` and
 * `missing-items-restricted`). Policies are reference data every member mirrors
 * (`expense_policies` in `refs`); admins write them (POLICY_7002 otherwise), and a body whose rules
 * contradict themselves (schema/expense-policy.ts `policyProblems`) answers 422 POLICY_7001 with
 * the fields. The evaluator is schema/expense-policy.ts `evaluatePolicies`, run here by the server
 * and by the worker offline.
 *
 * Compliance (admins and the business-wide readers: `canSeeAllTransactions`) counts, per person or
 * department, the items checked in a date range and those with violations; reminders (admins)
 * mail each person their missing items, once per person and UTC day (POLICY_7004), never someone
 * with nothing missing (POLICY_7005).
 */
const scopes = { scopes: ['default'] } as const;
/**
 * §6: the wizard's calls admit its two tokens besides a full one. `missing-items` (minted by
 * `mintMissingItemsToken` on the caller's session) may list and fix the holder's own items: the
 * list, receipt upload and attach, memo and coding on their own transaction or claim.
 * `missing-items-restricted` (the reminder mail's link) may list and add receipts only. What each
 * may send, and that the item is the holder's own (else 404), is held by
 * server/domain/expense-policies/wizard-token.ts before any handler runs.
 */
export const WIZARD_SCOPES = ['default', 'missing-items', 'missing-items-restricted'] as const;
const wizardScopes = { scopes: WIZARD_SCOPES } as const;

/** A `missing-items` token's lifetime: at most this, and never past the token it was minted from. */
export const MISSING_ITEMS_TOKEN_MAX_TTL_SECONDS = 12 * 60 * 60;
/** The reminder link's `missing-items-restricted` token: its own session, a week (sign-out-all ends it sooner). */
export const MISSING_ITEMS_LINK_TTL_SECONDS = 7 * 24 * 60 * 60;

const policyParams = z.object({ expense_policy_id: z.uuid() });

/** PATCH: any part of the input; `rules` replaces the rules whole (the editor sends them all). */
export const expensePolicyPatchSchema = expensePolicyInputSchema.partial();

const policies = callGroup('/v1/auth/expense-policies', scopes);

/** Live policies, oldest first (the evaluator's order). Every member may read them (they are mirrored to all). */
export const listExpensePolicies = policies('expensePolicies.list', 'GET', '', {
  response: z.object({ data: z.array(expensePolicySchema) }),
});
/** 201. At most MAX_EXPENSE_POLICIES live policies (POLICY_7003). */
export const createExpensePolicy = policies('expensePolicies.create', 'POST', '', {
  body: expensePolicyInputSchema, response: expensePolicySchema,
});
export const getExpensePolicy = policies('expensePolicies.get', 'GET', '/:expense_policy_id', {
  params: policyParams, response: expensePolicySchema,
});
export const updateExpensePolicy = policies('expensePolicies.update', 'PATCH', '/:expense_policy_id', {
  params: policyParams, body: expensePolicyPatchSchema, response: expensePolicySchema,
});
/** §7 DELETE expense-policies/{policy}: a tombstone (mirrors drop it); answers the deleted policy's id. */
export const deleteExpensePolicy = policies('expensePolicies.delete', 'DELETE', '/:expense_policy_id', {
  params: policyParams, response: z.object({ id: z.uuid(), deleted: z.literal(true) }),
});

// --- Compliance and reminders --------------------------------------------------------------------

const complianceRowSchema = z.object({
  /** The person's or the department's id; null: people without a department. */
  id: z.uuid().nullable(),
  name: z.string(),
  /** Items checked: card transactions (pending and cleared, refunds excluded) and claims (not canceled) in the range. */
  items: z.number().int().nonnegative(),
  items_with_violations: z.number().int().nonnegative(),
  /** Items with something the person can still add (receipt, memo, coding). */
  missing_items: z.number().int().nonnegative(),
  /** Items per violation code (codes with none are absent). */
  by_code: z.partialRecord(z.enum(VIOLATION_CODES), z.number().int().positive()),
  /** 1 − items_with_violations ÷ items; 1 when there are no items. */
  compliance_rate: z.number().min(0).max(1),
  /** Person rows: the last reminder sent, else null; department rows: null. */
  last_reminded_at: z.iso.datetime({ offset: true }).nullable(),
});
export type ComplianceRow = z.infer<typeof complianceRowSchema>;

export const complianceQuerySchema = z.object({
  group_by: z.enum(['person', 'department']).default('person'),
  /** ISO dates, inclusive; default: the last 30 days to today (UTC). At most 366 days. */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});

export const complianceAnswerSchema = z.object({
  group_by: z.enum(['person', 'department']),
  from: z.iso.date(),
  to: z.iso.date(),
  /** What the counts include, in words (shown under the table). */
  includes: z.string(),
  rows: z.array(complianceRowSchema),
  totals: z.object({ items: z.number().int().nonnegative(), items_with_violations: z.number().int().nonnegative(), missing_items: z.number().int().nonnegative() }),
});
export type ComplianceAnswer = z.infer<typeof complianceAnswerSchema>;

export const getPolicyCompliance = policies('expensePolicies.compliance', 'GET', '/compliance', {
  query: complianceQuerySchema, response: complianceAnswerSchema,
});

export const sendMissingItemReminders = policies('expensePolicies.remind', 'POST', '/reminders', {
  body: z.object({ user_ids: z.array(z.uuid()).min(1).max(200) }),
  response: z.object({
    reminded: z.array(z.object({ user_id: z.uuid(), item_count: z.number().int().positive() })),
    /** POLICY_7004 (already reminded today), POLICY_7005 (nothing missing); another business's or an unknown id: REQUEST_7004. */
    skipped: z.array(z.object({ user_id: z.uuid(), code: z.enum(['POLICY_7004', 'POLICY_7005', 'REQUEST_7004']), message: z.string() })),
  }),
});

// --- The missing-items wizard --------------------------------------------------------------------

export const missingItemSchema = z.object({
  object_type: z.enum(['transaction', 'reimbursement']),
  object_id: z.uuid(),
  /** The purchase's UTC day (a claim's claim date). */
  date: z.iso.date(),
  amount: z.number().int().positive(),
  currency: z.string(),
  /** The merchant (a claim's merchant, or its type in words when it has none). */
  merchant: z.string(),
  memo: z.string().nullable(),
  receipt_ids: z.array(z.uuid()),
  gl_account_id: z.uuid().nullable(),
  department_id: z.uuid().nullable(),
  location_id: z.uuid().nullable(),
  /** Only what the person can fix here (missing_receipt, missing_memo, missing_coding), in the wizard's order. */
  violations: z.array(violationSchema).min(1),
});
export type MissingItem = z.infer<typeof missingItemSchema>;

/**
 * GET /v1/auth/users/current/missing-items: the caller's own card transactions (pending and
 * cleared, not yet exported to accounting) and editable claims (DRAFT, REJECTED) with something
 * missing, newest first. `total_count` always.
 */
export const listMissingItems = callGroup('/v1/auth/users/current', wizardScopes)('missingItems.list', 'GET', '/missing-items', {
  query: pageQuerySchema, response: paginatedSchema(missingItemSchema).extend({ total_count: z.number().int().nonnegative() }),
});

/**
 * §6 `missing-items`: the caller's full token exchanged for one carrying only `missing-items`, on
 * the same session (sign-out ends it), keeping the MFA and impersonation claims, expiring no later
 * than the token it came from (at most MISSING_ITEMS_TOKEN_MAX_TTL_SECONDS). 200.
 */
export const mintMissingItemsToken = callGroup('/v1/auth/users/current', scopes)('missingItems.token', 'POST', '/missing-items/token', {
  body: z.object({}).strict().optional(),
  response: z.object({ id_token: z.string(), expires_at: z.iso.datetime() }),
});

export const EXPENSE_POLICY_CALLS = [
  listExpensePolicies, createExpensePolicy, getExpensePolicy, updateExpensePolicy, deleteExpensePolicy,
  getPolicyCompliance, sendMissingItemReminders, listMissingItems, mintMissingItemsToken,
] as const;
