import type { PolicyStepBody } from '../../../schema/api/calls-approval-policies.ts';
import type { ApproverSpec, PolicyStep, StepCondition } from '../../../schema/approval-policy.ts';
import { minorToDecimal, toMinorUnits } from '../../../schema/money.ts';
import { roleDisplayName } from '../../../schema/roles.ts';
import { formatMoney, joinList } from '../../lib/format.ts';

/** The names a policy's words need (reference data). */
export interface PolicyNames {
  user(id: string): string;
  vendor(id: string): string;
  department(id: string | null): string;
  entity(id: string | null): string;
  /** An approval group's name (issue 29); absent: "an approval group". */
  group?(id: string): string;
}

/** A step as the form edits it: the amount as typed, the id lists always present, a local key for React. */
export interface DraftStep {
  key: string;
  /** The server's id; absent on a step added here (the server names it). */
  id?: string;
  amount: string;
  currency: string;
  vendor_ids: string[];
  department_ids: string[];
  entity_ids: string[];
  approvers: ApproverSpec;
}

let nextKey = 0;
const newKey = () => `step-${++nextKey}`;

export function toDraft(step: PolicyStep, fallbackCurrency: string): DraftStep {
  const c = step.condition;
  return {
    key: newKey(),
    id: step.id,
    amount: c?.min_amount ? minorToDecimal(c.min_amount.amount, c.min_amount.currency) : '',
    currency: c?.min_amount?.currency ?? fallbackCurrency,
    vendor_ids: c?.vendor_ids ?? [],
    department_ids: c?.department_ids ?? [],
    entity_ids: c?.entity_ids ?? [],
    approvers: step.approvers,
  };
}

/** A new step: always applies, the requester's manager approves. */
export function blankStep(currency: string): DraftStep {
  return { key: newKey(), amount: '', currency, vendor_ids: [], department_ids: [], entity_ids: [], approvers: { kind: 'manager' } };
}

/** Field errors by path (`steps.1.amount`), as the server's error_v2 `errors` are keyed. */
export type PolicyErrors = Record<string, string>;

/** The steps the PATCH sends, or the form's own errors (an amount that is not money, a person not chosen). */
export function toBody(drafts: readonly DraftStep[]): { ok: true; steps: PolicyStepBody[] } | { ok: false; errors: PolicyErrors } {
  const errors: PolicyErrors = {};
  const steps = drafts.map((d, i): PolicyStepBody => {
    const condition: StepCondition = {};
    if (d.amount.trim() !== '') {
      const minor = toMinorUnits(d.amount, d.currency);
      if (minor === null || minor < 0) errors[`steps.${i}.condition.min_amount.amount`] = `Enter an amount in ${d.currency}, like 10000.00.`;
      else condition.min_amount = { amount: minor, currency: d.currency };
    }
    if (d.vendor_ids.length > 0) condition.vendor_ids = d.vendor_ids;
    if (d.department_ids.length > 0) condition.department_ids = d.department_ids;
    if (d.entity_ids.length > 0) condition.entity_ids = d.entity_ids;
    if (d.approvers.kind === 'user' && !d.approvers.user_id) errors[`steps.${i}.approvers.user_id`] = 'Choose who approves this step.';
    if (d.approvers.kind === 'group' && d.approvers.user_ids.length === 0) errors[`steps.${i}.approvers.user_ids`] = 'Choose at least one person.';
    if (d.approvers.kind === 'approval_group' && !d.approvers.group_id) errors[`steps.${i}.approvers.group_id`] = 'Choose a group.';
    return { ...(d.id ? { id: d.id } : {}), condition: Object.keys(condition).length > 0 ? condition : null, approvers: d.approvers };
  });
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, steps };
}

const listOf = (ids: readonly string[], name: (id: string) => string, what: string) =>
  joinList(ids.map((id) => name(id) || `an unknown ${what}`)).replace(/ and ([^,]+)$/, ' or $1');

/** "amount at or above $10,000.00 USD, vendor Acme or Globex": a step's condition, "always" without one. */
export function conditionText(c: StepCondition | null, names: PolicyNames): string {
  if (!c) return 'Always';
  const parts: string[] = [];
  if (c.min_amount) parts.push(`amount at or above ${formatMoney(c.min_amount.amount, c.min_amount.currency)} ${c.min_amount.currency}`);
  if (c.vendor_ids?.length) parts.push(`vendor ${listOf(c.vendor_ids, names.vendor, 'vendor')}`);
  if (c.department_ids?.length) parts.push(`department ${listOf(c.department_ids, names.department, 'department')}`);
  if (c.entity_ids?.length) parts.push(`entity ${listOf(c.entity_ids, names.entity, 'entity')}`);
  return parts.length === 0 ? 'Always' : `When ${parts.join(', ')}`;
}

/** "Ada Lovelace", "any Admin", "the requester's manager", "all of Ada Lovelace and Grace Hopper". */
export function approverText(a: ApproverSpec, names: PolicyNames): string {
  switch (a.kind) {
    case 'user': return names.user(a.user_id) || 'a person not on this device';
    case 'role': return `any ${roleDisplayName(a.role)}`;
    case 'manager': return 'the requester’s manager';
    case 'group': return `${a.mode === 'all' ? 'all of' : 'any one of'} ${joinList(a.user_ids.map((id) => names.user(id) || 'someone'))}`;
    case 'approval_group': return `the group ${names.group?.(a.group_id) || 'not on this device'}`;
  }
}

/** A step in one line: "When amount at or above $10,000.00 USD → any Admin". */
export function stepText(step: Pick<PolicyStepBody, 'condition' | 'approvers'>, names: PolicyNames): string {
  return `${conditionText(step.condition, names)} → ${approverText(step.approvers, names)}`;
}

const NO_NAMES: PolicyNames = { user: (id) => id, vendor: (id) => id, department: (id) => id ?? '', entity: (id) => id ?? '', group: (id) => id };
const canonical = (s: Pick<PolicyStepBody, 'condition' | 'approvers'>) => JSON.stringify(stepText(s, NO_NAMES));

/**
 * What a save changes, in words, before it is sent (the confirmation lists them): steps added,
 * removed, changed (before → after) and moved. Empty when nothing changes.
 */
export function policyChanges(saved: readonly PolicyStep[], next: readonly PolicyStepBody[], names: PolicyNames): string[] {
  const out: string[] = [];
  const nextIds = new Set(next.flatMap((s) => (s.id ? [s.id] : [])));
  saved.forEach((s, i) => {
    if (!nextIds.has(s.id)) out.push(`Remove step ${i + 1}: ${stepText(s, names)}`);
  });
  next.forEach((s, i) => {
    const before = s.id ? saved.findIndex((x) => x.id === s.id) : -1;
    if (before < 0) out.push(`Add step ${i + 1}: ${stepText(s, names)}`);
    else if (canonical(saved[before]!) !== canonical(s)) out.push(`Change step ${i + 1}: ${stepText(saved[before]!, names)} ⇒ ${stepText(s, names)}`);
  });
  const keptOrder = next.flatMap((s) => (s.id && saved.some((x) => x.id === s.id) ? [s.id] : []));
  const savedOrder = saved.filter((s) => nextIds.has(s.id)).map((s) => s.id);
  if (keptOrder.join() !== savedOrder.join()) out.push('Reorder the steps');
  return out;
}

/** Server field errors keyed `body.steps.2.approvers.user_id` or `steps.2.…`: the step index they name, else null (the form's). */
export function errorStep(path: string): number | null {
  const m = /(?:^|\.)steps\.(\d+)(?:\.|$)/.exec(path);
  return m ? Number(m[1]) : null;
}
