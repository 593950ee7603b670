import type { FieldConflict } from '../../../schema/commands/conflicts.ts';
import type { ExpensePolicy } from '../../../schema/entities/expense-policy.ts';
import {
  DEFAULT_RECEIPT_THRESHOLD, defaultPolicyRules, expensePolicyInputSchema, policyProblems,
  type ExpensePolicyInput, type ExpensePolicyRules, type ExpensePolicyScope, type PolicyMoney,
} from '../../../schema/expense-policy.ts';
import { minorToDecimal, toMinorUnits } from '../../../schema/money.ts';
import type { Role } from '../../../schema/roles.ts';
import type { Checked } from '../../lib/forms/use-checked-submit.ts';
import { formatLocalDateTime } from '../../lib/format.ts';

/**
 * The expense policy editor's form, pure: values as typed ↔ the API's input
 * (schema/expense-policy.ts `expensePolicyInputSchema`). Errors are keyed by the API's field
 * paths (`rules.category_caps.0.per_transaction`), the same keys `policyProblems` and the
 * server's 422 POLICY_7001 use, so one map shows all three under the inputs.
 */

export type MoneyValue = { on: boolean; amount: string; currency: string };
export type CapValue = { category: string; currency: string; perTransaction: string; perDay: string };

export interface PolicyFormValues {
  name: string;
  description: string;
  enabled: boolean;
  scope: ExpensePolicyScope['kind'];
  department_ids: string[];
  roles: Role[];
  receipt: MoneyValue;
  memo: MoneyValue;
  coding: ExpensePolicyRules['coding_required'];
  caps: CapValue[];
  /** Blocked merchant categories, one a line. */
  blocked: string;
  perDiem: MoneyValue;
  mileage: { on: boolean; miles: string };
}

export type PolicyErrors = Record<string, string>;

const moneyValue = (m: PolicyMoney | null, fallbackCurrency: string): MoneyValue =>
  m ? { on: true, amount: minorToDecimal(m.amount, m.currency), currency: m.currency } : { on: false, amount: '', currency: fallbackCurrency };

/** A new policy starts from "receipt required from 75 USD" (DEFAULT_RECEIPT_THRESHOLD), everyone, on. */
export function newPolicyValues(currency: string = DEFAULT_RECEIPT_THRESHOLD.currency): PolicyFormValues {
  return valuesOf({ name: '', description: null, scope: { kind: 'everyone' }, rules: defaultPolicyRules(), enabled: true }, currency);
}

export function valuesOf(p: Pick<ExpensePolicy, 'name' | 'scope' | 'rules' | 'enabled'> & { description?: string | null | undefined }, currency = 'USD'): PolicyFormValues {
  const r = p.rules;
  return {
    name: p.name,
    description: p.description ?? '',
    enabled: p.enabled,
    scope: p.scope.kind,
    department_ids: p.scope.kind === 'departments' ? [...p.scope.department_ids] : [],
    roles: p.scope.kind === 'roles' ? [...p.scope.roles] : [],
    receipt: moneyValue(r.receipt_required_from, currency),
    memo: moneyValue(r.memo_required_above, currency),
    coding: { ...r.coding_required },
    caps: r.category_caps.map((c) => ({
      category: c.merchant_category, currency: c.currency,
      perTransaction: c.per_transaction === null ? '' : minorToDecimal(c.per_transaction, c.currency),
      perDay: c.per_day === null ? '' : minorToDecimal(c.per_day, c.currency),
    })),
    blocked: r.blocked_categories.join('\n'),
    perDiem: moneyValue(r.per_diem?.max_per_day ?? null, currency),
    mileage: r.mileage ? { on: true, miles: String(r.mileage.max_miles_per_claim) } : { on: false, miles: '' },
  };
}

export const blockedList = (text: string): string[] => text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);

/** An amount as typed → minor units; an error under `path` when it is not one. */
function amountOf(text: string, currency: string, path: string, errors: PolicyErrors, allowZero: boolean): number | null {
  const minor = toMinorUnits(text.trim(), currency);
  if (minor === null || minor < 0 || (!allowZero && minor === 0)) {
    errors[path] = text.trim() ? `Enter an amount in ${currency}${allowZero ? '' : ' above zero'}.` : 'Enter an amount.';
    return null;
  }
  return minor;
}

const optionalCap = (text: string, currency: string, path: string, errors: PolicyErrors) =>
  text.trim() === '' ? null : amountOf(text, currency, path, errors, false);

function moneyRule(v: MoneyValue, path: string, errors: PolicyErrors, allowZero: boolean): PolicyMoney | null {
  if (!v.on) return null;
  const amount = amountOf(v.amount, v.currency, `${path}.amount`, errors, allowZero);
  return amount === null ? null : { amount, currency: v.currency };
}

/** The rules as far as they parse (errors for what does not). */
export function rulesOf(v: PolicyFormValues, errors: PolicyErrors = {}): ExpensePolicyRules {
  const perDiem = moneyRule(v.perDiem, 'rules.per_diem.max_per_day', errors, false);
  const miles = v.mileage.on ? Number(v.mileage.miles.trim()) : null;
  if (v.mileage.on && (!Number.isFinite(miles) || miles === null || miles <= 0)) errors['rules.mileage.max_miles_per_claim'] = 'Enter a distance in miles above zero.';
  return {
    receipt_required_from: moneyRule(v.receipt, 'rules.receipt_required_from', errors, true),
    memo_required_above: moneyRule(v.memo, 'rules.memo_required_above', errors, true),
    coding_required: { ...v.coding },
    category_caps: v.caps.map((c, i) => ({
      merchant_category: c.category.trim(), currency: c.currency,
      per_transaction: optionalCap(c.perTransaction, c.currency, `rules.category_caps.${i}.per_transaction`, errors),
      per_day: optionalCap(c.perDay, c.currency, `rules.category_caps.${i}.per_day`, errors),
    })),
    blocked_categories: blockedList(v.blocked),
    per_diem: perDiem ? { max_per_day: perDiem } : null,
    mileage: v.mileage.on && miles !== null && Number.isFinite(miles) && miles > 0 ? { max_miles_per_claim: miles } : null,
  };
}

function scopeOf(v: PolicyFormValues, errors: PolicyErrors): ExpensePolicyScope {
  if (v.scope === 'departments') {
    if (v.department_ids.length === 0) errors['scope.department_ids'] = 'Pick at least one department.';
    return { kind: 'departments', department_ids: v.department_ids };
  }
  if (v.scope === 'roles') {
    if (v.roles.length === 0) errors['scope.roles'] = 'Pick at least one role.';
    return { kind: 'roles', roles: v.roles };
  }
  return { kind: 'everyone' };
}

/**
 * The contradictions `policyProblems` finds, live while typing (shown under the inputs before
 * save), once the amounts parse.
 */
export function liveProblems(v: PolicyFormValues): PolicyErrors {
  const parse: PolicyErrors = {};
  const rules = rulesOf(v, parse);
  return policyProblems({ ...rules, category_caps: rules.category_caps.filter((c) => c.merchant_category) });
}

/** The body to send, or every field's message (the schema's, the form's and `policyProblems`'). */
export function policyInput(v: PolicyFormValues): Checked<ExpensePolicyInput, PolicyErrors> {
  const errors: PolicyErrors = {};
  if (!v.name.trim()) errors.name = 'Name the policy.';
  const scope = scopeOf(v, errors);
  const rules = rulesOf(v, errors);
  rules.category_caps.forEach((c, i) => {
    if (!c.merchant_category) errors[`rules.category_caps.${i}.merchant_category`] = 'Enter a merchant category.';
  });
  const input: ExpensePolicyInput = { name: v.name.trim(), description: v.description.trim() || null, scope, rules, enabled: v.enabled };
  const parsed = expensePolicyInputSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.join('.');
      if (!errors[path]) errors[path] = issue.message;
    }
  }
  Object.assign(errors, Object.fromEntries(Object.entries(policyProblems(rules)).filter(([k]) => !errors[k])));
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, body: parsed.success ? parsed.data : input };
}

/** A cap row's messages (row-level, then per input), for the row's inputs. */
export function capErrors(errors: PolicyErrors, i: number): { row?: string; category?: string; perTransaction?: string; perDay?: string } {
  const at = `rules.category_caps.${i}`;
  return {
    ...(errors[at] ? { row: errors[at] } : {}),
    ...(errors[`${at}.merchant_category`] ? { category: errors[`${at}.merchant_category`] } : {}),
    ...(errors[`${at}.per_transaction`] ? { perTransaction: errors[`${at}.per_transaction`] } : {}),
    ...(errors[`${at}.per_day`] ? { perDay: errors[`${at}.per_day`] } : {}),
  };
}

/** Every message about the blocked list (one per listed category), joined. */
export const blockedErrors = (errors: PolicyErrors): string | undefined => {
  const found = Object.entries(errors).filter(([k]) => k === 'rules.blocked_categories' || k.startsWith('rules.blocked_categories.')).map(([, m]) => m);
  return found.length > 0 ? found.join(' ') : undefined;
};

/** A policy's rules in a few words, for the list ("Receipt from $75.00 · Memo above $75.00 · 2 caps"). */
export function rulesSummary(r: ExpensePolicyRules, money: (minor: number, currency: string) => string): string {
  const parts: string[] = [];
  if (r.receipt_required_from) parts.push(`Receipt from ${money(r.receipt_required_from.amount, r.receipt_required_from.currency)}`);
  if (r.memo_required_above) parts.push(r.memo_required_above.amount === 0 ? 'Memo always' : `Memo above ${money(r.memo_required_above.amount, r.memo_required_above.currency)}`);
  const coding = [r.coding_required.gl_account && 'GL account', r.coding_required.department && 'department', r.coding_required.location && 'location'].filter(Boolean);
  if (coding.length > 0) parts.push(`Coding: ${coding.join(', ')}`);
  if (r.category_caps.length > 0) parts.push(r.category_caps.length === 1 ? '1 category cap' : `${r.category_caps.length} category caps`);
  if (r.blocked_categories.length > 0) parts.push(`${r.blocked_categories.length} blocked`);
  if (r.per_diem) parts.push(`Per diem ${money(r.per_diem.max_per_day.amount, r.per_diem.max_per_day.currency)}/day`);
  if (r.mileage) parts.push(`Mileage ≤ ${r.mileage.max_miles_per_claim} mi`);
  return parts.length > 0 ? parts.join(' · ') : 'No rules yet';
}

/**
 * An edit's PATCH (issue 29, sent with If-Match): only the fields the form changed from the
 * policy it opened, so a field left alone never overwrites another admin's change to it. Null
 * when nothing changed.
 */
export function policyEdit(before: ExpensePolicyInput, after: ExpensePolicyInput): Partial<ExpensePolicyInput> | null {
  const keys = (Object.keys(after) as (keyof ExpensePolicyInput)[]).filter((k) => JSON.stringify(after[k] ?? null) !== JSON.stringify(before[k] ?? null));
  return keys.length === 0 ? null : Object.fromEntries(keys.map((k) => [k, after[k]])) as Partial<ExpensePolicyInput>;
}

/**
 * A 409 CONFLICT on a policy in words: who changed which part, when, and to what where it reads in
 * a line; then the two ways on (the form keeps what was typed: saving again keeps mine on the
 * version the conflict named, cancelling keeps theirs).
 */
export function policyConflictMessage(conflicts: readonly FieldConflict[], money: (minor: number, currency: string) => string): string {
  const said = conflicts.map((c) => {
    const who = c.changed_by?.name || 'Someone';
    const at = Date.parse(c.changed_at);
    const when = Number.isNaN(at) ? '' : ` at ${formatLocalDateTime(at)}`;
    switch (c.field) {
      case 'name': return `${who} renamed it${when} to “${String(c.server_value)}”.`;
      case 'enabled': return `${who} turned it ${c.server_value ? 'on' : 'off'}${when}.`;
      case 'rules': return `${who} changed the rules${when} to: ${rulesSummary(c.server_value as ExpensePolicyRules, money)}.`;
      case 'scope': return `${who} changed who it applies to${when}.`;
      case 'description': return `${who} changed the description${when}.`;
      default: return `${who} changed ${c.field}${when}.`;
    }
  });
  return `${said.join(' ')} Nothing of yours was saved. Save again to keep your version, or cancel to keep theirs.`;
}
