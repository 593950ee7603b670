import { z } from 'zod';
import { merchantCategorySchema } from './entities/card.ts';
import { formatMoney, knownCurrencySchema, moneyOf } from './money.ts';
import { roleSchema } from './roles.ts';

/**
 * Expense policies (issue 29), pure: what a business allows, and what each card transaction and
 * claim misses or breaks. One evaluator, `evaluatePolicies`, runs on the server (the missing-items
 * call, compliance, reminders) and in the worker (the wizard, offline, from the mirror), so both
 * sides name the same violations with the same words.
 *
 * A policy applies to a person by its scope (everyone, departments, roles: the person's own
 * department and role). Every policy that applies is checked; an item carries at most one violation
 * per code and category (the first policy in the order given that raises it: the caller passes
 * them oldest first), so two policies asking for a receipt show one "missing receipt".
 *
 * Rules, as Ramp and Expensify apply them:
 * - receipt: required when the amount is at or above `receipt_required_from` (same currency only:
 *   no conversion, as approval thresholds); mileage and per-diem claims never need one;
 * - memo: required when the amount is strictly above `memo_required_above`;
 * - coding: the fields `coding_required` names must be set (location applies to card transactions
 *   only: claims carry none);
 * - category caps per transaction and per day (the person's items of that category, currency and
 *   UTC day, summed; every item of a day over the cap is flagged); blocked categories;
 * - per diem: a per-diem claim's amount per day at most `per_diem.max_per_day`;
 * - mileage: a mileage claim's distance at most `mileage.max_miles_per_claim`.
 *
 * Only spend is checked: declined and reversed transactions, refunds (amount ≤ 0) and canceled
 * claims are not items (`policyItemFromTransaction` / `policyItemFromReimbursement` answer null).
 */

export const MAX_EXPENSE_POLICIES = 50;
export const MAX_CATEGORY_RULES = 50;
const MAX_AMOUNT = 1_000_000_000_00;
/** "Receipt required from 75 USD": what a new policy's form starts from. */
export const DEFAULT_RECEIPT_THRESHOLD = { amount: 7500, currency: 'USD' } as const;

export const policyMoneySchema = moneyOf(z.number().int().nonnegative().max(MAX_AMOUNT));
export type PolicyMoney = z.infer<typeof policyMoneySchema>;

export const expensePolicyScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('everyone') }),
  z.object({ kind: z.literal('departments'), department_ids: z.array(z.uuid()).min(1).max(200) }),
  z.object({ kind: z.literal('roles'), roles: z.array(roleSchema).min(1).max(20) }),
]);
export type ExpensePolicyScope = z.infer<typeof expensePolicyScopeSchema>;

const capAmount = z.number().int().positive().max(MAX_AMOUNT).nullable();
export const categoryCapSchema = z.object({
  merchant_category: merchantCategorySchema,
  currency: knownCurrencySchema,
  /** Minor units; null: no cap per transaction. */
  per_transaction: capAmount,
  /** Minor units; null: no cap per day. */
  per_day: capAmount,
});
export type CategoryCap = z.infer<typeof categoryCapSchema>;

export const expensePolicyRulesSchema = z.object({
  /** A receipt is required at or above this amount; null: never. */
  receipt_required_from: policyMoneySchema.nullable(),
  /** A memo is required strictly above this amount (0: always); null: never. */
  memo_required_above: policyMoneySchema.nullable(),
  coding_required: z.object({ gl_account: z.boolean(), department: z.boolean(), location: z.boolean() }),
  category_caps: z.array(categoryCapSchema).max(MAX_CATEGORY_RULES),
  blocked_categories: z.array(merchantCategorySchema).max(MAX_CATEGORY_RULES),
  per_diem: z.object({ max_per_day: policyMoneySchema.extend({ amount: z.number().int().positive().max(MAX_AMOUNT) }) }).nullable(),
  mileage: z.object({ max_miles_per_claim: z.number().positive().max(100_000) }).nullable(),
});
export type ExpensePolicyRules = z.infer<typeof expensePolicyRulesSchema>;

/** The editable part of a policy: the create body, and (all optional) the patch body. */
export const expensePolicyInputSchema = z.object({
  name: z.string().trim().min(1).max(120),
  description: z.string().trim().max(2000).nullable().optional(),
  scope: expensePolicyScopeSchema,
  rules: expensePolicyRulesSchema,
  enabled: z.boolean(),
});
export type ExpensePolicyInput = z.infer<typeof expensePolicyInputSchema>;

/** A new policy's rules: a receipt from 75 USD, nothing else. */
export const defaultPolicyRules = (): ExpensePolicyRules => ({
  receipt_required_from: { ...DEFAULT_RECEIPT_THRESHOLD },
  memo_required_above: null,
  coding_required: { gl_account: false, department: false, location: false },
  category_caps: [],
  blocked_categories: [],
  per_diem: null,
  mileage: null,
});

const sameCategory = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Contradictions the schema cannot see, as field → message (empty: none): a cap per transaction
 * above the same category's cap per day, a cap with neither amount, a category capped twice in one
 * currency, a category both capped and blocked, a category blocked twice. The server answers them
 * 422 with these fields; the editor shows them under their inputs.
 */
export function policyProblems(rules: ExpensePolicyRules): Record<string, string> {
  const out: Record<string, string> = {};
  rules.category_caps.forEach((cap, i) => {
    const at = `rules.category_caps.${i}`;
    if (cap.per_transaction === null && cap.per_day === null) out[at] = `Set a cap per transaction or per day for ${cap.merchant_category}.`;
    else if (cap.per_transaction !== null && cap.per_day !== null && cap.per_transaction > cap.per_day) {
      out[`${at}.per_transaction`] = `The cap per transaction (${formatMoney(cap.per_transaction, cap.currency)}) is above the cap per day (${formatMoney(cap.per_day, cap.currency)}) for ${cap.merchant_category}.`;
    }
    const twin = rules.category_caps.findIndex((c, j) => j < i && c.currency === cap.currency && sameCategory(c.merchant_category, cap.merchant_category));
    // Both problems on one input are said together: the second must not hide the first.
    const said: string[] = [];
    if (twin >= 0) said.push(`${cap.merchant_category} already has a cap in ${cap.currency} (rule ${twin + 1}).`);
    if (rules.blocked_categories.some((b) => sameCategory(b, cap.merchant_category))) {
      said.push(`${cap.merchant_category} is blocked: a cap on it would never apply.`);
    }
    if (said.length > 0) out[`${at}.merchant_category`] = said.join(' ');
  });
  rules.blocked_categories.forEach((b, i) => {
    if (rules.blocked_categories.findIndex((o) => sameCategory(o, b)) < i) out[`rules.blocked_categories.${i}`] = `${b} is listed twice.`;
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Items and people

export type PolicyObjectKind = 'transaction' | 'reimbursement';

/** One card transaction or claim, as the evaluator reads it. */
export type PolicyItem = {
  object_type: PolicyObjectKind;
  id: string;
  user_id: string;
  /** Minor units, > 0. */
  amount: number;
  currency: string;
  /** The UTC day of the purchase (a claim's claim date). */
  date: string;
  /** Card transactions only (claims carry none: category rules skip them). */
  merchant_category: string | null;
  memo: string | null;
  receipt_count: number;
  gl_account_id: string | null;
  department_id: string | null;
  /** undefined: the item has no location field (claims); the location rule skips it. */
  location_id?: string | null;
  /** Claims only. */
  claim_type?: 'OUT_OF_POCKET' | 'MILEAGE' | 'PER_DIEM';
  distance_miles?: number | null;
  /** Per-diem claims: the days claimed (at least 1). */
  days?: number;
};

type TransactionLike = {
  id: string; user_id: string; amount: number; currency: string; occurred_at: string; state: string;
  merchant_category: string; memo: string | null; receipt_ids: readonly string[];
  gl_account_id: string | null; department_id: string | null; location_id: string | null;
};
type ReimbursementLike = {
  id: string; user_id: string; amount: number; currency: string; transaction_date: string; status: string;
  type: 'OUT_OF_POCKET' | 'MILEAGE' | 'PER_DIEM'; memo: string | null; receipt_ids: readonly string[];
  gl_account_id: string | null; department_id: string | null; distance_miles: number | null;
  start_date: string | null; end_date: string | null;
};

export function policyItemFromTransaction(t: TransactionLike): PolicyItem | null {
  if ((t.state !== 'PENDING' && t.state !== 'CLEARED') || t.amount <= 0) return null;
  return {
    object_type: 'transaction', id: t.id, user_id: t.user_id, amount: t.amount, currency: t.currency,
    date: new Date(t.occurred_at).toISOString().slice(0, 10), merchant_category: t.merchant_category || null,
    memo: t.memo, receipt_count: t.receipt_ids.length, gl_account_id: t.gl_account_id,
    department_id: t.department_id, location_id: t.location_id,
  };
}

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

export function policyItemFromReimbursement(r: ReimbursementLike): PolicyItem | null {
  if (r.status === 'CANCELED' || r.amount <= 0) return null;
  const days = r.type === 'PER_DIEM' && r.start_date && r.end_date ? Math.max(1, daysBetween(r.start_date, r.end_date)) : undefined;
  return {
    object_type: 'reimbursement', id: r.id, user_id: r.user_id, amount: r.amount, currency: r.currency,
    date: r.transaction_date, merchant_category: null, memo: r.memo, receipt_count: r.receipt_ids.length,
    gl_account_id: r.gl_account_id, department_id: r.department_id, claim_type: r.type,
    distance_miles: r.distance_miles, ...(days !== undefined ? { days } : {}),
  };
}

/**
 * The missing-items wizard's items (`GET /v1/auth/users/current/missing-items` on the server, the
 * worker's count offline): what the person can still change. A card transaction pending or
 * cleared, a purchase (amount > 0), not yet exported to accounting (an exported one refuses
 * coding edits); a claim its claimant still holds (DRAFT, REJECTED: reimbursement-rules.ts
 * `checkEditable`). Compliance counts every item; the wizard only these.
 */
export const WIZARD_CLAIM_STATUSES = ['DRAFT', 'REJECTED'] as const;
export const inWizardTransaction = (t: Pick<TransactionLike, 'state' | 'amount'> & { accounting_synced_at?: string | null }) =>
  (t.state === 'PENDING' || t.state === 'CLEARED') && t.amount > 0 && !t.accounting_synced_at;
export const inWizardClaim = (r: Pick<ReimbursementLike, 'status' | 'amount'>) =>
  (WIZARD_CLAIM_STATUSES as readonly string[]).includes(r.status) && r.amount > 0;

/** A claim's merchant for the wizard's heading: its merchant, else its type in words. */
export function claimMerchant(r: { merchant: string | null; type: ReimbursementLike['type'] }): string {
  const named = (r.merchant ?? '').trim();
  if (named) return named;
  return { OUT_OF_POCKET: 'Out-of-pocket expense', MILEAGE: 'Mileage', PER_DIEM: 'Per diem' }[r.type];
}

/** The person an item belongs to, as scopes read them. */
export type PolicyPerson = { id: string; role: string; department_id: string | null };

/** The stored policy the evaluator reads (the mirrored row has these and more). */
export type EvaluatedPolicy = { id: string; name: string; enabled: boolean; scope: ExpensePolicyScope; rules: ExpensePolicyRules };

/**
 * Oldest first: the order in which policies win (`created_at`, then `id`). The server reads them
 * in this order (server/domain/expense-policies/policies.ts `livePolicies`) and the worker sorts
 * its mirrored ones with it, so both evaluate alike.
 */
export function evaluatorOrder<P extends { created_at: string; id: string }>(policies: readonly P[]): P[] {
  return [...policies].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function policyAppliesTo(policy: Pick<EvaluatedPolicy, 'enabled' | 'scope'>, person: PolicyPerson | undefined): boolean {
  if (!policy.enabled || !person) return false;
  switch (policy.scope.kind) {
    case 'everyone': return true;
    case 'departments': return person.department_id !== null && policy.scope.department_ids.includes(person.department_id);
    case 'roles': return (policy.scope.roles as readonly string[]).includes(person.role);
  }
}

// ---------------------------------------------------------------------------------------------
// Violations

export const VIOLATION_CODES = [
  'missing_receipt', 'missing_memo', 'missing_coding', 'over_cap', 'over_daily_cap', 'blocked_category', 'over_per_diem', 'over_mileage',
] as const;
export type ViolationCode = (typeof VIOLATION_CODES)[number];
/** What the person can fix on the item itself: the missing-items wizard's steps. */
export const FIXABLE_CODES: readonly ViolationCode[] = ['missing_receipt', 'missing_memo', 'missing_coding'];
export const CODING_FIELDS = ['gl_account_id', 'department_id', 'location_id'] as const;
export type CodingField = (typeof CODING_FIELDS)[number];

export const violationSchema = z.object({
  code: z.enum(VIOLATION_CODES),
  policy_id: z.uuid(),
  policy_name: z.string(),
  /** In words, with the figures ("A receipt is required from $75.00: this is $100.00."). */
  message: z.string(),
  /** missing_coding: the fields to set. */
  fields: z.array(z.enum(CODING_FIELDS)).optional(),
  /** The threshold or cap the item crossed. */
  limit: policyMoneySchema.optional(),
});
export type Violation = z.infer<typeof violationSchema>;

export const itemKey = (i: Pick<PolicyItem, 'object_type' | 'id'>) => `${i.object_type}:${i.id}`;

const money = (amount: number, currency: string) => formatMoney(amount, currency);

function itemViolations(item: PolicyItem, p: EvaluatedPolicy, daySum: (category: string, currency: string) => number): Violation[] {
  const out: Violation[] = [];
  const base = { policy_id: p.id, policy_name: p.name };
  const r = p.rules;
  const isClaim = item.object_type === 'reimbursement';
  const needsReceipt = !isClaim || item.claim_type === 'OUT_OF_POCKET';
  if (needsReceipt && r.receipt_required_from && r.receipt_required_from.currency === item.currency
    && item.amount >= r.receipt_required_from.amount && item.receipt_count === 0) {
    out.push({ ...base, code: 'missing_receipt', limit: r.receipt_required_from,
      message: `A receipt is required from ${money(r.receipt_required_from.amount, item.currency)}: this is ${money(item.amount, item.currency)}.` });
  }
  if (r.memo_required_above && r.memo_required_above.currency === item.currency && item.amount > r.memo_required_above.amount
    && !(item.memo ?? '').trim()) {
    out.push({ ...base, code: 'missing_memo', limit: r.memo_required_above,
      message: r.memo_required_above.amount === 0 ? 'A memo is required.'
        : `A memo is required above ${money(r.memo_required_above.amount, item.currency)}: this is ${money(item.amount, item.currency)}.` });
  }
  const missing: CodingField[] = [];
  if (r.coding_required.gl_account && !item.gl_account_id) missing.push('gl_account_id');
  if (r.coding_required.department && !item.department_id) missing.push('department_id');
  if (r.coding_required.location && item.location_id === null) missing.push('location_id');
  if (missing.length > 0) {
    const words = missing.map((f) => ({ gl_account_id: 'a GL account', department_id: 'a department', location_id: 'a location' })[f]);
    out.push({ ...base, code: 'missing_coding', fields: missing, message: `Coding is required: add ${words.join(' and ')}.` });
  }
  const category = item.merchant_category;
  if (category) {
    if (r.blocked_categories.some((b) => sameCategory(b, category))) {
      out.push({ ...base, code: 'blocked_category', message: `${category} is not allowed by ${p.name}.` });
    }
    const cap = r.category_caps.find((c) => c.currency === item.currency && sameCategory(c.merchant_category, category));
    if (cap?.per_transaction != null && item.amount > cap.per_transaction) {
      out.push({ ...base, code: 'over_cap', limit: { amount: cap.per_transaction, currency: cap.currency },
        message: `${cap.merchant_category} is capped at ${money(cap.per_transaction, cap.currency)} per transaction: this is ${money(item.amount, item.currency)}.` });
    }
    if (cap?.per_day != null) {
      const sum = daySum(category, item.currency);
      if (sum > cap.per_day) {
        out.push({ ...base, code: 'over_daily_cap', limit: { amount: cap.per_day, currency: cap.currency },
          message: `${cap.merchant_category} is capped at ${money(cap.per_day, cap.currency)} per day: ${money(sum, item.currency)} was spent on ${item.date}.` });
      }
    }
  }
  if (item.claim_type === 'PER_DIEM' && r.per_diem && r.per_diem.max_per_day.currency === item.currency) {
    const days = item.days ?? 1;
    const perDay = Math.round(item.amount / days);
    if (perDay > r.per_diem.max_per_day.amount) {
      out.push({ ...base, code: 'over_per_diem', limit: r.per_diem.max_per_day,
        message: `Per diem is capped at ${money(r.per_diem.max_per_day.amount, item.currency)} a day: this claims ${money(perDay, item.currency)} a day.` });
    }
  }
  if (item.claim_type === 'MILEAGE' && r.mileage && (item.distance_miles ?? 0) > r.mileage.max_miles_per_claim) {
    out.push({ ...base, code: 'over_mileage', message: `Mileage is capped at ${r.mileage.max_miles_per_claim} miles a claim: this claims ${item.distance_miles} miles.` });
  }
  return out;
}

/**
 * Every item's violations (key `itemKey(item)`; items without any are absent). `policies` in the
 * order they win (oldest first); `people` by id: an item whose person is unknown is checked by no
 * policy. Per-day caps sum the items given, so pass every item of the days that matter.
 */
export function evaluatePolicies(
  items: readonly PolicyItem[], policies: readonly EvaluatedPolicy[], people: ReadonlyMap<string, PolicyPerson>,
): Map<string, Violation[]> {
  const out = new Map<string, Violation[]>();
  const live = policies.filter((p) => p.enabled);
  if (live.length === 0) return out;
  const days = new Map<string, number>();
  const dayKey = (user: string, category: string, currency: string, date: string) => `${user}|${category.trim().toLowerCase()}|${currency}|${date}`;
  for (const i of items) {
    if (!i.merchant_category) continue;
    const k = dayKey(i.user_id, i.merchant_category, i.currency, i.date);
    days.set(k, (days.get(k) ?? 0) + i.amount);
  }
  for (const item of items) {
    const person = people.get(item.user_id);
    const found: Violation[] = [];
    const seen = new Set<string>();
    for (const p of live) {
      if (!policyAppliesTo(p, person)) continue;
      for (const v of itemViolations(item, p, (c, cur) => days.get(dayKey(item.user_id, c, cur, item.date)) ?? 0)) {
        if (seen.has(v.code)) continue;
        seen.add(v.code);
        found.push(v);
      }
    }
    if (found.length > 0) out.set(itemKey(item), found);
  }
  return out;
}

/** The violations the person can fix on the item (the wizard's steps), in the wizard's order. */
export const fixableViolations = (vs: readonly Violation[]): Violation[] =>
  FIXABLE_CODES.flatMap((code) => vs.filter((v) => v.code === code));
