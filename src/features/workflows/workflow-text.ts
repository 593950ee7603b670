import { roleDisplayName } from '../../../schema/roles.ts';
import type { ViolationCode } from '../../../schema/expense-policy.ts';
import { ACTION_LABELS, TRIGGER_LABELS, type WorkflowAction, type WorkflowCondition, type WorkflowTrigger } from '../../../schema/workflow.ts';
import { formatMoney } from '../../lib/format.ts';

/**
 * Workflows in words (issue 29), pure: a condition ("amount under $25.00"), an action
 * ("approve automatically when under $25.00"), and the whole chain as an if / otherwise-if
 * sentence, the list's and the canvas's summary.
 */

export interface WorkflowNames {
  user(id: string): string;
  department(id: string): string;
  vendor(id: string): string;
  glAccount(id: string): string;
  location(id: string): string;
}

export const CONDITION_LABELS: Record<WorkflowCondition['kind'], string> = {
  amount: 'Amount',
  merchant: 'Merchant',
  merchant_category: 'Merchant category',
  department: 'Department',
  person: 'Person',
  role: 'Role',
  vendor: 'Vendor',
  policy_violation: 'Breaks the expense policy',
};

export const VIOLATION_WORDS: Record<ViolationCode, string> = {
  missing_receipt: 'missing receipt',
  missing_memo: 'missing memo',
  missing_coding: 'missing coding',
  over_cap: 'over a category cap',
  over_daily_cap: 'over a daily cap',
  blocked_category: 'blocked category',
  over_per_diem: 'over the per diem',
  over_mileage: 'over the mileage rate',
};

const OP_WORDS = { gt: 'over', gte: 'at least', lt: 'under', lte: 'at most' } as const;

/** "Ana Ruiz", "Ana Ruiz or Ben Li", "3 people" past three. */
function listOf(ids: readonly string[], name: (id: string) => string, many: string): string {
  const named = ids.map((id) => name(id) || 'someone removed');
  if (named.length > 3) return `${named.length} ${many}`;
  return named.length <= 1 ? (named[0] ?? '') : `${named.slice(0, -1).join(', ')} or ${named[named.length - 1]}`;
}

export function conditionText(c: WorkflowCondition, n: WorkflowNames): string {
  switch (c.kind) {
    case 'amount': return `amount ${OP_WORDS[c.op]} ${formatMoney(c.amount, c.currency)}`;
    case 'merchant': return c.op === 'is' ? `merchant is “${c.value}”` : `merchant contains “${c.value}”`;
    case 'merchant_category': return `category is ${listOf(c.in, (x) => x, 'categories')}`;
    case 'department': return `department is ${listOf(c.in, n.department, 'departments')}`;
    case 'person': return `person is ${listOf(c.in, n.user, 'people')}`;
    case 'role': return `role is ${listOf(c.in, (r) => roleDisplayName(r), 'roles')}`;
    case 'vendor': return `vendor is ${listOf(c.in, n.vendor, 'vendors')}`;
    case 'policy_violation': return `it breaks the policy (${listOf(c.codes, (x) => VIOLATION_WORDS[x as ViolationCode], 'kinds')})`;
  }
}

export function actionText(a: WorkflowAction, n: WorkflowNames): string {
  switch (a.kind) {
    case 'require_receipt': return 'require a receipt';
    case 'lock_card': return 'lock the card';
    case 'set_coding': {
      const parts = [
        a.gl_account_id ? `GL ${n.glAccount(a.gl_account_id) || 'account'}` : '',
        a.department_id ? `department ${n.department(a.department_id) || '(removed)'}` : '',
        a.location_id ? `location ${n.location(a.location_id) || '(removed)'}` : '',
      ].filter(Boolean);
      return `set coding: ${parts.join(', ')}`;
    }
    case 'add_approval_step': {
      const s = a.approvers;
      const who = s.kind === 'user' ? (n.user(s.user_id) || 'a person') : s.kind === 'role' ? `any ${roleDisplayName(s.role)}` : s.kind === 'manager' ? 'their manager'
        : s.kind === 'group' ? `a group of ${s.user_ids.length}` : 'an approval group';
      return `add an approval step: ${who}`;
    }
    case 'auto_approve': return `approve automatically when under ${formatMoney(a.under.amount, a.under.currency)}`;
    case 'notify': {
      const t = a.to;
      const who = t.kind === 'user' ? (n.user(t.user_id) || 'a person') : t.kind === 'role' ? `every ${roleDisplayName(t.role)}` : t.kind === 'owner' ? 'the owner' : 'their manager';
      return `notify ${who}`;
    }
    case 'comment': return 'add a comment';
  }
}

const joinAnd = (parts: readonly string[]) => (parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`);

/** One rule: "If amount under $25.00 and …, then approve …", "Otherwise if …", "Otherwise, …", "Always …". */
export function ruleText(r: { conditions: readonly WorkflowCondition[]; actions: readonly WorkflowAction[] }, index: number, n: WorkflowNames): string {
  const then = joinAnd(r.actions.map((a) => actionText(a, n)));
  if (r.conditions.length === 0) return index === 0 ? `Always ${then}.` : `Otherwise, ${then}.`;
  const when = joinAnd(r.conditions.map((c) => conditionText(c, n)));
  return `${index === 0 ? 'If' : 'Otherwise if'} ${when}, then ${then}.`;
}

/** The whole workflow: "When a claim is submitted: if …, then …. Otherwise if …". */
export function workflowText(trigger: WorkflowTrigger, rules: readonly { conditions: readonly WorkflowCondition[]; actions: readonly WorkflowAction[] }[], n: WorkflowNames): string {
  return [`${TRIGGER_LABELS[trigger]}.`, ...rules.map((r, i) => ruleText(r, i, n))].join(' ');
}

export { ACTION_LABELS, TRIGGER_LABELS };
