import { spendAllocationCreateSchema } from '../../../schema/api/calls-procurement.ts';
import type { LimitInterval } from '../../../schema/entities/card.ts';
import type { SpendAllocation } from '../../../schema/entities/spend-allocation.ts';
import { fullName, type UserRow } from '../../../schema/entities/spend-user.ts';
import { validationMessages } from '../../../schema/errors.ts';
import { toMinorUnits } from '../../../schema/money.ts';
import { budgetOpen } from '../../lib/spend-request-labels.ts';

/**
 * The budget forms (issue 28): a new budget's values → `createSpendAllocation`'s body (parsed with
 * the call's own schema), the people who may be added to one, and the order budgets are listed
 * in. Pure; tested.
 */

export interface BudgetValues {
  name: string;
  description: string;
  amount: string;
  currency: string;
  interval: LimitInterval;
  /** YYYY-MM-DD or empty (open-ended). */
  end_date: string;
  member_ids: string[];
}

export type BudgetErrors = Partial<Record<keyof BudgetValues, string>>;
export type BudgetBody = ReturnType<typeof spendAllocationCreateSchema.parse>;

export const emptyBudgetValues = (currency: string): BudgetValues => ({
  name: '', description: '', amount: '', currency, interval: 'MONTHLY', end_date: '', member_ids: [],
});

const FIELD: Record<string, keyof BudgetValues> = {
  name: 'name', description: 'description', 'limit.amount': 'amount', 'limit.currency': 'currency', 'limit.interval': 'interval', end_date: 'end_date',
};
const LABEL: Record<keyof BudgetValues, string> = {
  name: 'Name', description: 'Description', amount: 'Limit', currency: 'Currency', interval: 'Interval', end_date: 'End date', member_ids: 'People',
};

/** The form → the create call's body, or every field's error at once (an end date in the past too). */
export function budgetBody(v: BudgetValues, today: string): { ok: true; body: BudgetBody } | { ok: false; errors: BudgetErrors } {
  const typed = v.amount.trim().replace(/^[$€£¥]/, '').replaceAll(',', '');
  const amount = typed === '' ? undefined : (toMinorUnits(typed, v.currency) ?? typed);
  const input = {
    name: v.name.trim(), description: v.description.trim() || null, member_ids: v.member_ids,
    limit: { amount, currency: v.currency, interval: v.interval }, end_date: v.end_date || null,
  };
  const errors: BudgetErrors = {};
  const parsed = spendAllocationCreateSchema.safeParse(input);
  if (!parsed.success) {
    for (const [path, message] of Object.entries(validationMessages(parsed.error, input))) {
      const field = FIELD[path] ?? (path.startsWith('member_ids') ? 'member_ids' : 'name');
      let text = message;
      for (const [api, f] of Object.entries(FIELD)) text = text.replaceAll(api, LABEL[f].toLowerCase());
      errors[field] ??= text.charAt(0).toUpperCase() + text.slice(1);
    }
  }
  if (typeof amount === 'number' && amount <= 0) errors.amount ??= 'The limit must be more than zero.';
  if (v.end_date && v.end_date < today) errors.end_date ??= 'The end date cannot be in the past.';
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: parsed.data };
}

/** Active people not yet in the budget (neither owner nor member), by name, narrowed by `q`. */
export function addablePeople(budget: Pick<SpendAllocation, 'owner_id' | 'member_ids'> | null, users: readonly Pick<UserRow, 'id' | 'first_name' | 'last_name' | 'status'>[], q = '') {
  const inside = new Set(budget ? [budget.owner_id, ...budget.member_ids] : []);
  const terms = q.trim().toLowerCase();
  return users
    .filter((u) => u.status !== 'SUSPENDED' && !inside.has(u.id))
    .map((u) => ({ id: u.id, name: fullName(u) }))
    .filter((u) => !terms || u.name.toLowerCase().includes(terms))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The budgets page's order: open ones first (least left in proportion first), then ended and archived, each by name. */
export function budgetOrder<A extends SpendAllocation>(budgets: readonly A[], today: string): A[] {
  const share = (a: A) => (a.limit.amount > 0 ? a.left / a.limit.amount : 1);
  return [...budgets].sort((a, b) => {
    const open = Number(budgetOpen(b, today)) - Number(budgetOpen(a, today));
    return open !== 0 ? open : share(a) - share(b) || a.name.localeCompare(b.name);
  });
}

/** Who may add people to a budget: its owner, or an admin or manager (`canCreateSpendAllocations`). */
export const mayAddPeople = (budget: Pick<SpendAllocation, 'owner_id'>, viewerId: string, canCreate: boolean) => canCreate || budget.owner_id === viewerId;
