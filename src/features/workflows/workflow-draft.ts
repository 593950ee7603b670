import { ROLES, type Role } from '../../../schema/roles.ts';
import { VIOLATION_CODES, type ViolationCode } from '../../../schema/expense-policy.ts';
import {
  ACTIONS_FOR, CONDITIONS_FOR, MAX_WORKFLOW_RULES, workflowActionSchema, workflowConditionSchema, workflowProblems,
  type Workflow, type WorkflowAction, type WorkflowCondition, type WorkflowInput, type WorkflowTrigger,
} from '../../../schema/workflow.ts';
import { minorToDecimal, toMinorUnits } from '../../../schema/money.ts';

/**
 * The workflow editor's form state (issue 29), pure: what the pickers hold while being edited
 * (amounts as typed, lists of ids), and the way to and from the contract's workflow
 * (schema/workflow.ts). `compile` checks every field with the contract's own schemas and
 * `workflowProblems` (what the trigger's object has no use for), so the form says what the
 * server would refuse before anything is sent. Errors are keyed by `ruleKey(ri, 'conditions'|'actions', i)`.
 */

export type ConditionKind = WorkflowCondition['kind'];
export type ActionKind = WorkflowAction['kind'];
export type AmountOp = 'gt' | 'gte' | 'lt' | 'lte';
export type NotifyTo = 'owner' | 'manager' | 'user' | 'role';
export type ApproverKind = 'manager' | 'user' | 'role';

export interface DraftCondition {
  key: string;
  kind: ConditionKind;
  op: AmountOp;
  amount: string;
  currency: string;
  text: string;
  textOp: 'is' | 'contains';
  /** Department, person or vendor ids; merchant categories; roles; violation codes (by kind). */
  values: string[];
}

export interface DraftAction {
  key: string;
  kind: ActionKind;
  amount: string;
  currency: string;
  gl_account_id: string;
  department_id: string;
  location_id: string;
  approver: ApproverKind;
  user_id: string;
  role: Role;
  to: NotifyTo;
  text: string;
}

export interface DraftRule {
  key: string;
  id?: string;
  conditions: DraftCondition[];
  actions: DraftAction[];
}

export interface WorkflowDraft {
  name: string;
  trigger: WorkflowTrigger;
  enabled: boolean;
  rules: DraftRule[];
}

export type DraftErrors = Record<string, string>;
export type Compiled =
  | { ok: true; input: WorkflowInput; rules: { id?: string; conditions: WorkflowCondition[]; actions: WorkflowAction[] }[] }
  | { ok: false; errors: DraftErrors };

/** An amount as typed ("25", "1,200.50", "$25") in minor units; null: not money; undefined: blank. */
export function parseAmount(text: string, currency: string): number | null | undefined {
  const t = text.trim().replace(/^[$€£¥]/, '').replace(/,/g, '');
  if (t === '') return undefined;
  const minor = toMinorUnits(t, currency);
  return minor === null || !Number.isSafeInteger(minor) ? null : minor;
}
const amountText = (minor: number, currency: string) => minorToDecimal(minor, currency);

/** "Airlines, Hotels" → the categories, blanks and repeats dropped. */
export const categoriesOf = (text: string) => [...new Set(text.split(',').map((x) => x.trim()).filter(Boolean))];

let counter = 0;
const nextKey = (prefix: string) => `${prefix}-${++counter}`;

export const ruleKey = (ri: number, part: 'conditions' | 'actions', i: number) => `r${ri}.${part}.${i}`;

export function blankCondition(kind: ConditionKind, currency: string): DraftCondition {
  return { key: nextKey('c'), kind, op: 'lt', amount: '', currency, text: '', textOp: 'contains', values: [] };
}

export function blankAction(kind: ActionKind, currency: string): DraftAction {
  return {
    key: nextKey('a'), kind, amount: '', currency, gl_account_id: '', department_id: '', location_id: '',
    approver: 'manager', user_id: '', role: 'BUSINESS_ADMIN', to: 'owner', text: '',
  };
}

export function blankRule(trigger: WorkflowTrigger, currency: string): DraftRule {
  return { key: nextKey('r'), conditions: [], actions: [blankAction(ACTIONS_FOR[trigger][0]!, currency)] };
}

export function blankDraft(currency: string, trigger: WorkflowTrigger = 'claim.submitted'): WorkflowDraft {
  return { name: '', trigger, enabled: false, rules: [blankRule(trigger, currency)] };
}

export function conditionDraft(c: WorkflowCondition, currency: string): DraftCondition {
  const d = blankCondition(c.kind, currency);
  switch (c.kind) {
    case 'amount': return { ...d, op: c.op, amount: amountText(c.amount, c.currency), currency: c.currency };
    case 'merchant': return { ...d, textOp: c.op, text: c.value };
    case 'merchant_category': return { ...d, text: c.in.join(', '), values: [...c.in] };
    case 'department': case 'person': case 'vendor': case 'role': return { ...d, values: [...c.in] };
    case 'policy_violation': return { ...d, values: [...c.codes] };
  }
}

export function actionDraft(a: WorkflowAction, currency: string): DraftAction {
  const d = blankAction(a.kind, currency);
  switch (a.kind) {
    case 'require_receipt': case 'lock_card': return d;
    case 'set_coding': return { ...d, gl_account_id: a.gl_account_id ?? '', department_id: a.department_id ?? '', location_id: a.location_id ?? '' };
    case 'add_approval_step': {
      const s = a.approvers;
      if (s.kind === 'user') return { ...d, approver: 'user', user_id: s.user_id };
      if (s.kind === 'role') return { ...d, approver: 'role', role: s.role };
      return { ...d, approver: 'manager' };
    }
    case 'auto_approve': return { ...d, amount: amountText(a.under.amount, a.under.currency), currency: a.under.currency };
    case 'notify': {
      const t = a.to;
      return { ...d, text: a.message, to: t.kind, ...(t.kind === 'user' ? { user_id: t.user_id } : {}), ...(t.kind === 'role' ? { role: t.role } : {}) };
    }
    case 'comment': return { ...d, text: a.text };
  }
}

export function ruleDrafts(rules: readonly { id?: string; conditions: readonly WorkflowCondition[]; actions: readonly WorkflowAction[] }[], currency: string): DraftRule[] {
  return rules.map((r) => ({
    key: nextKey('r'), ...(r.id ? { id: r.id } : {}),
    conditions: r.conditions.map((c) => conditionDraft(c, currency)),
    actions: r.actions.map((a) => actionDraft(a, currency)),
  }));
}

export function workflowDraft(w: Pick<Workflow, 'name' | 'trigger' | 'enabled' | 'rules'>, currency: string): WorkflowDraft {
  return { name: w.name, trigger: w.trigger, enabled: w.enabled, rules: ruleDrafts(w.rules, currency) };
}

const ROLE_SET = new Set<string>(ROLES);
const CODE_SET = new Set<string>(VIOLATION_CODES);

/** One condition as the contract's, or the field's message. */
export function compileCondition(d: DraftCondition): { ok: true; value: WorkflowCondition } | { ok: false; message: string } {
  let raw: unknown;
  switch (d.kind) {
    case 'amount': {
      const minor = parseAmount(d.amount, d.currency);
      if (minor === undefined) return { ok: false, message: 'Enter an amount.' };
      if (minor === null || minor < 0) return { ok: false, message: 'Enter an amount such as 25.00.' };
      raw = { kind: 'amount', op: d.op, amount: minor, currency: d.currency };
      break;
    }
    case 'merchant':
      if (!d.text.trim()) return { ok: false, message: 'Enter the merchant’s name or part of it.' };
      raw = { kind: 'merchant', op: d.textOp, value: d.text.trim() };
      break;
    case 'merchant_category': {
      const list = categoriesOf(d.text);
      if (list.length === 0) return { ok: false, message: 'Name at least one category, separated by commas.' };
      raw = { kind: 'merchant_category', in: list };
      break;
    }
    case 'role':
      raw = { kind: 'role', in: d.values.filter((v) => ROLE_SET.has(v)) };
      break;
    case 'policy_violation':
      raw = { kind: 'policy_violation', codes: d.values.filter((v) => CODE_SET.has(v)) as ViolationCode[] };
      break;
    default:
      raw = { kind: d.kind, in: d.values };
  }
  if (d.kind !== 'amount' && d.kind !== 'merchant' && d.kind !== 'merchant_category' && d.values.length === 0) return { ok: false, message: 'Choose at least one.' };
  const parsed = workflowConditionSchema.safeParse(raw);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: parsed.error.issues[0]?.message ?? 'Check this condition.' };
}

/** One action as the contract's, or the field's message. */
export function compileAction(d: DraftAction): { ok: true; value: WorkflowAction } | { ok: false; message: string } {
  let raw: unknown;
  switch (d.kind) {
    case 'require_receipt': case 'lock_card': raw = { kind: d.kind }; break;
    case 'set_coding': {
      if (!d.gl_account_id && !d.department_id && !d.location_id) return { ok: false, message: 'Choose a GL account, a department or a location.' };
      raw = {
        kind: 'set_coding', ...(d.gl_account_id ? { gl_account_id: d.gl_account_id } : {}),
        ...(d.department_id ? { department_id: d.department_id } : {}), ...(d.location_id ? { location_id: d.location_id } : {}),
      };
      break;
    }
    case 'add_approval_step': {
      if (d.approver === 'user' && !d.user_id) return { ok: false, message: 'Choose who approves.' };
      const approvers = d.approver === 'user' ? { kind: 'user', user_id: d.user_id } : d.approver === 'role' ? { kind: 'role', role: d.role } : { kind: 'manager' };
      raw = { kind: 'add_approval_step', approvers };
      break;
    }
    case 'auto_approve': {
      const minor = parseAmount(d.amount, d.currency);
      if (minor === undefined) return { ok: false, message: 'Enter the amount it approves under.' };
      if (minor === null || minor <= 0) return { ok: false, message: 'Enter an amount such as 25.00.' };
      raw = { kind: 'auto_approve', under: { amount: minor, currency: d.currency } };
      break;
    }
    case 'notify': {
      if (d.to === 'user' && !d.user_id) return { ok: false, message: 'Choose who is told.' };
      if (!d.text.trim()) return { ok: false, message: 'Write the message.' };
      const to = d.to === 'user' ? { kind: 'user', user_id: d.user_id } : d.to === 'role' ? { kind: 'role', role: d.role } : { kind: d.to };
      raw = { kind: 'notify', to, message: d.text.trim() };
      break;
    }
    case 'comment':
      if (!d.text.trim()) return { ok: false, message: 'Write the comment.' };
      raw = { kind: 'comment', text: d.text.trim() };
  }
  const parsed = workflowActionSchema.safeParse(raw);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: parsed.error.issues[0]?.message ?? 'Check this action.' };
}

/** The contract's path of a rule's part (`conditions.0`, `rules.1.actions.2`) as the form's key, or null. */
export function formKeyOf(path: string): string | null {
  const m = /^(?:rules\.(\d+)\.)?(conditions|actions)\.(\d+)/.exec(path);
  if (!m) return null;
  const ri = m[1] === undefined ? 0 : Number(m[1]) + 1;
  return ruleKey(ri, m[2] as 'conditions' | 'actions', Number(m[3]));
}

/** The rules as the contract's; every field checked; what the trigger cannot use named by field. */
export function compileRules(trigger: WorkflowTrigger, rules: readonly DraftRule[]): Compiled {
  const errors: DraftErrors = {};
  const out: { id?: string; conditions: WorkflowCondition[]; actions: WorkflowAction[] }[] = [];
  if (rules.length === 0) errors.rules = 'A workflow needs at least one rule.';
  if (rules.length > MAX_WORKFLOW_RULES) errors.rules = `A workflow has at most ${MAX_WORKFLOW_RULES} rules.`;
  rules.forEach((r, ri) => {
    const conditions: WorkflowCondition[] = [];
    const actions: WorkflowAction[] = [];
    r.conditions.forEach((c, i) => {
      const x = compileCondition(c);
      if (x.ok) conditions.push(x.value);
      else errors[ruleKey(ri, 'conditions', i)] = x.message;
    });
    r.actions.forEach((a, i) => {
      const x = compileAction(a);
      if (x.ok) actions.push(x.value);
      else errors[ruleKey(ri, 'actions', i)] = x.message;
    });
    if (r.actions.length === 0) errors[`r${ri}.actions`] = 'Add at least one action.';
    out.push({ ...(r.id ? { id: r.id } : {}), conditions, actions });
  });
  if (Object.keys(errors).length === 0) {
    for (const [path, message] of Object.entries(workflowProblems(trigger, out))) errors[formKeyOf(path) ?? path] = message;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const [first, ...rest] = out;
  return {
    ok: true, rules: out,
    input: { name: '', trigger, enabled: false, conditions: first!.conditions, actions: first!.actions, rules: rest.map((r) => ({ ...r })) },
  };
}

/** The whole form: name, then the rules. */
export function compile(d: WorkflowDraft): Compiled {
  const r = compileRules(d.trigger, d.rules);
  const name = d.name.trim();
  if (!name) return { ok: false, errors: { ...(r.ok ? {} : r.errors), name: 'Name the workflow.' } };
  if (!r.ok) return r;
  return { ...r, input: { ...r.input, name: name.slice(0, 120), enabled: d.enabled } };
}

/** A trigger change keeps what still fits the new trigger and drops the rest (said by the caller). */
export function retrigger(d: WorkflowDraft, trigger: WorkflowTrigger, currency: string): { draft: WorkflowDraft; dropped: number } {
  let dropped = 0;
  const rules = d.rules.map((r) => {
    const conditions = r.conditions.filter((c) => CONDITIONS_FOR[trigger].includes(c.kind));
    const actions = r.actions.filter((a) => ACTIONS_FOR[trigger].includes(a.kind));
    dropped += r.conditions.length - conditions.length + r.actions.length - actions.length;
    return { ...r, conditions, actions: actions.length > 0 ? actions : [blankAction(ACTIONS_FOR[trigger][0]!, currency)] };
  });
  return { draft: { ...d, trigger, rules }, dropped };
}
