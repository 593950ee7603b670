import { z } from 'zod';
import { knownCurrencySchema, moneyOf } from './money.ts';
import { roleSchema } from './roles.ts';

/**
 * Approval policies and chains (issue 11), pure. A business has one policy per object type: ordered
 * steps, each with a condition and its approvers. Submitting an object resolves the policy against
 * that object (`resolveChain`) into a chain of concrete steps, each a set of user ids; an instance
 * then walks that chain (`startInstance`, `decide`, `reorderPendingStep`). The chain is resolved
 * once, at submission, and stored with the instance: a later policy change never rewrites an
 * instance already running (Ramp's rule; an approver who leaves is covered by the admin override).
 *
 * Rules, as Ramp applies them:
 * - a step whose condition does not match the object is skipped (every clause present must match;
 *   a list clause matches any of its ids); when no step applies, nothing is approved silently: the
 *   admins review it in one step (`NO_STEP_APPLIES`), as a spend control should;
 * - nobody approves their own item: the requester is never among a step's approvers;
 * - a step left with no eligible approver (no manager, an inactive user, a group of only the
 *   requester) falls back to the business's admins, the requester excluded, any one of them;
 * - an "any one" step completes on its first approval, an "all" step when every approver approved;
 *   one rejection rejects the whole instance; the instance approves when its last step completes.
 */

/** §7 PATCH /approval_policy/{bill, card, reimbursement, spend_request, vendor-payment, payee}, and `travel` (issue 27: out-of-policy bookings). */
const POLICY_OBJECT_TYPES = ['bill', 'card', 'reimbursement', 'spend_request', 'vendor-payment', 'payee', 'travel'] as const;
export const policyObjectTypeSchema = z.enum(POLICY_OBJECT_TYPES);
export type PolicyObjectType = z.infer<typeof policyObjectTypeSchema>;

export const MAX_POLICY_STEPS = 20;
export const MAX_GROUP_SIZE = 50;
const MAX_CONDITION_IDS = 200;
const ids = z.array(z.uuid()).min(1).max(MAX_CONDITION_IDS);

/** Minor units of `currency`: the step applies at or above it (no conversion: another currency never matches). */
const minAmountSchema = moneyOf(z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER));

export const stepConditionSchema = z.object({
  min_amount: minAmountSchema.optional(),
  department_ids: ids.optional(),
  vendor_ids: ids.optional(),
  entity_ids: ids.optional(),
});
export type StepCondition = z.infer<typeof stepConditionSchema>;

export const approverSpecSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), user_id: z.uuid() }),
  /** Every active user holding the role; any one of them approves. */
  z.object({ kind: z.literal('role'), role: roleSchema }),
  /** The requester's manager at submission. */
  z.object({ kind: z.literal('manager') }),
  z.object({ kind: z.literal('group'), user_ids: z.array(z.uuid()).min(1).max(MAX_GROUP_SIZE), mode: z.enum(['any', 'all']) }),
  /** Issue 29: a named approval group of the business (its members and mode as they stand at submission). */
  z.object({ kind: z.literal('approval_group'), group_id: z.uuid() }),
]);
export type ApproverSpec = z.infer<typeof approverSpecSchema>;

export const policyStepSchema = z.object({
  id: z.uuid(),
  /** null: the step always applies. */
  condition: stepConditionSchema.nullable(),
  approvers: approverSpecSchema,
});
export type PolicyStep = z.infer<typeof policyStepSchema>;

export const policySchema = z.object({
  object_type: policyObjectTypeSchema,
  steps: z.array(policyStepSchema).max(MAX_POLICY_STEPS),
});
export type Policy = z.infer<typeof policySchema>;

/**
 * Today's review, as a policy: one step, the requester's manager (else the admins). Admins and
 * bookkeepers may still decide any approval (the §6 override the approvals routes keep), so the
 * reimbursement and card-request flows behave as before issue 11.
 */
export const DEFAULT_STEP_ID = '00000000-0000-4000-8000-000000000001';
export function defaultPolicy(objectType: PolicyObjectType): Policy {
  return { object_type: objectType, steps: [{ id: DEFAULT_STEP_ID, condition: null, approvers: { kind: 'manager' } }] };
}

/** What a policy is resolved against: one submitted object. */
export type Subject = {
  requester_id: string;
  amount: number;
  currency: string;
  department_id?: string | null;
  vendor_id?: string | null;
  entity_id?: string | null;
};
export const subjectSchema = z.object({
  requester_id: z.uuid(),
  amount: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  currency: knownCurrencySchema,
  department_id: z.uuid().nullable().optional(),
  vendor_id: z.uuid().nullable().optional(),
  entity_id: z.uuid().nullable().optional(),
});

/** The business's people as the resolution reads them. */
export type DirectoryUser = { id: string; role: string; manager_id: string | null; active: boolean };

export type ResolvedStep = {
  step_id: string;
  mode: 'any' | 'all';
  approver_ids: string[];
  /** True when the step's own approvers were none eligible and the admins stand in. */
  fallback: boolean;
};
export type StepTrace = { step_id: string; applies: boolean; reason: string };
export type Chain = { steps: ResolvedStep[]; trace: StepTrace[] };

const isAdminRole = (role: string) => role === 'BUSINESS_ADMIN' || role === 'BUSINESS_OWNER';

/** null when the condition matches; else why not, in words the simulation shows. */
function conditionMismatch(c: StepCondition | null, s: Subject): string | null {
  if (!c) return null;
  if (c.min_amount) {
    if (c.min_amount.currency !== s.currency) return `amount is in ${s.currency}, the threshold in ${c.min_amount.currency}`;
    if (s.amount < c.min_amount.amount) return `amount ${s.amount} is below the threshold ${c.min_amount.amount}`;
  }
  const clauses = [['department', c.department_ids, s.department_id], ['vendor', c.vendor_ids, s.vendor_id], ['entity', c.entity_ids, s.entity_id]] as const;
  for (const [what, allowed, value] of clauses) {
    if (allowed && !(value && allowed.includes(value))) return `${what} is not one of the step's ${what === 'entity' ? 'entities' : `${what}s`}`;
  }
  return null;
}

/** A named approval group as the resolution reads it (issue 29). */
export type GroupMembers = { user_ids: readonly string[]; mode: 'any' | 'all' };
export type GroupDirectory = ReadonlyMap<string, GroupMembers>;
const NO_GROUPS: GroupDirectory = new Map();

/** The step's own approvers, before exclusions, and its mode. A group no longer there names nobody (the admins stand in). */
function namedApprovers(spec: ApproverSpec, s: Subject, users: readonly DirectoryUser[], groups: GroupDirectory): { ids: string[]; mode: 'any' | 'all' } {
  switch (spec.kind) {
    case 'user': return { ids: [spec.user_id], mode: 'any' };
    case 'role': return { ids: users.filter((u) => u.role === spec.role).map((u) => u.id), mode: 'any' };
    case 'manager': {
      const manager = users.find((u) => u.id === s.requester_id)?.manager_id;
      return { ids: manager ? [manager] : [], mode: 'any' };
    }
    case 'group': return { ids: [...new Set(spec.user_ids)], mode: spec.mode };
    case 'approval_group': {
      const group = groups.get(spec.group_id);
      return group ? { ids: [...new Set(group.user_ids)], mode: group.mode } : { ids: [], mode: 'any' };
    }
  }
}

/** Active users among `ids`, never the requester. */
function eligible(ids: readonly string[], s: Subject, users: readonly DirectoryUser[]): string[] {
  const active = new Set(users.filter((u) => u.active && u.id !== s.requester_id).map((u) => u.id));
  return ids.filter((id) => active.has(id));
}

/** The concrete chain of one object under a policy, and why each policy step applies or not. */
export function resolveChain(policy: Policy, s: Subject, users: readonly DirectoryUser[], groups: GroupDirectory = NO_GROUPS): Chain {
  const steps: ResolvedStep[] = [];
  const trace: StepTrace[] = [];
  for (const step of policy.steps) {
    const mismatch = conditionMismatch(step.condition, s);
    if (mismatch) {
      trace.push({ step_id: step.id, applies: false, reason: mismatch });
      continue;
    }
    const named = namedApprovers(step.approvers, s, users, groups);
    const approvers = eligible(named.ids, s, users);
    if (approvers.length > 0) {
      steps.push({ step_id: step.id, mode: named.mode, approver_ids: approvers, fallback: false });
      trace.push({ step_id: step.id, applies: true, reason: step.condition ? 'condition matches' : 'no condition' });
      continue;
    }
    steps.push({ step_id: step.id, mode: 'any', approver_ids: adminsFor(s, users), fallback: true });
    trace.push({ step_id: step.id, applies: true, reason: 'no eligible approver: the admins approve instead' });
  }
  if (steps.length === 0) {
    steps.push({ step_id: NO_STEP_APPLIES, mode: 'any', approver_ids: adminsFor(s, users), fallback: true });
    trace.push({ step_id: NO_STEP_APPLIES, applies: true, reason: 'no policy step applies: the admins approve' });
  }
  return { steps, trace };
}

/** The step id of the admins' review when no policy step applies to an object. */
export const NO_STEP_APPLIES = '00000000-0000-4000-8000-0000000000ad';

const adminsFor = (s: Subject, users: readonly DirectoryUser[]) => eligible(users.filter((u) => isAdminRole(u.role)).map((u) => u.id), s, users);

/** An instance walking a resolved chain. */
export const INSTANCE_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'CANCELED'] as const;
const STEP_STATUSES = ['WAITING', 'PENDING', 'APPROVED', 'REJECTED'] as const;
export const instanceStepSchema = z.object({
  step_id: z.string(),
  mode: z.enum(['any', 'all']),
  approver_ids: z.array(z.string()),
  fallback: z.boolean(),
  status: z.enum(STEP_STATUSES),
  /** The approvers counted as having approved (a delegate's approval counts for whom they stood in). */
  approved_by: z.array(z.string()),
  /** Issue 29: approvals given through a delegation, "by X for Y" (absent on steps nobody decided that way). */
  delegated: z.array(z.object({ by: z.string(), for: z.string() })).optional(),
});
export type InstanceStep = z.infer<typeof instanceStepSchema>;
export type InstanceState = { status: (typeof INSTANCE_STATUSES)[number]; requester_id: string; steps: InstanceStep[] };

/** The first step opens at once (a chain from resolveChain always has one). */
export function startInstance(requesterId: string, chain: Chain): InstanceState {
  const steps = chain.steps.map((s, i): InstanceStep => ({ ...s, status: i === 0 ? 'PENDING' : 'WAITING', approved_by: [] }));
  return { status: steps.length === 0 ? 'APPROVED' : 'PENDING', requester_id: requesterId, steps };
}

/** Index of the open step, or -1 when the instance is closed. */
const currentStepIndex = (i: InstanceState) => (i.status === 'PENDING' ? i.steps.findIndex((s) => s.status === 'PENDING') : -1);

export type DecisionRefusal = 'own_item' | 'closed' | 'not_current' | 'not_approver' | 'already_approved';
export type DecideResult =
  | { ok: true; instance: InstanceState; step_completed: boolean; completed: boolean }
  | { ok: false; refusal: DecisionRefusal; message: string };

const refused = (refusal: DecisionRefusal, message: string): DecideResult => ({ ok: false, refusal, message });

/**
 * One approver's decision on step `stepIndex`. `override`: the caller may decide any step in the
 * approver's stead (§6: admins and bookkeepers review any reimbursement or card request); it
 * counts as the step's approval, whatever its mode. `actingFor` (issue 29): the caller decides as
 * the delegate of that approver, whose approval it counts as, recorded "by caller for them". The
 * requester is refused whatever their role, and so is a delegate deciding their own request.
 */
export function decide(
  inst: InstanceState, stepIndex: number, userId: string, decision: 'APPROVED' | 'REJECTED', opts: { override?: boolean; actingFor?: string } = {},
): DecideResult {
  if (userId === inst.requester_id || opts.actingFor === inst.requester_id) {
    return refused('own_item', 'You cannot approve your own request. Another approver must decide it.');
  }
  if (inst.status !== 'PENDING') return refused('closed', `This approval is ${inst.status.toLowerCase()} and cannot be decided.`);
  const step = inst.steps[stepIndex];
  if (!step || stepIndex !== currentStepIndex(inst)) return refused('not_current', 'This step is not the one waiting for a decision.');
  const approver = opts.actingFor ?? userId;
  const assigned = step.approver_ids.includes(approver);
  if (!assigned && (opts.actingFor || !opts.override)) return refused('not_approver', 'You are not an approver of this step.');
  if (step.approved_by.includes(approver)) return refused('already_approved', 'You already approved this step.');
  const steps = inst.steps.map((s) => ({ ...s, approved_by: [...s.approved_by] }));
  const open = steps[stepIndex]!;
  if (opts.actingFor) open.delegated = [...(open.delegated ?? []), { by: userId, for: opts.actingFor }];
  if (decision === 'REJECTED') {
    open.status = 'REJECTED';
    return { ok: true, instance: { ...inst, status: 'REJECTED', steps }, step_completed: true, completed: true };
  }
  open.approved_by.push(approver);
  const done = open.mode === 'any' || !assigned || open.approver_ids.every((id) => open.approved_by.includes(id));
  if (!done) return { ok: true, instance: { ...inst, steps }, step_completed: false, completed: false };
  open.status = 'APPROVED';
  const next = steps[stepIndex + 1];
  if (next) next.status = 'PENDING';
  return { ok: true, instance: { ...inst, status: next ? 'PENDING' : 'APPROVED', steps }, step_completed: true, completed: !next };
}

/**
 * Issue 29: whom the caller may stand in for on the open step: the first of `delegators` (who
 * delegated to the caller, active now) among the step's approvers who has not approved yet and is
 * not the requester. null when the caller decides as themselves (an approver of the step, or an
 * override) or may not decide it at all.
 */
export function delegatorFor(inst: InstanceState, stepIndex: number, delegators: readonly string[]): string | null {
  const step = inst.steps[stepIndex];
  if (!step) return null;
  return delegators.find((d) => d !== inst.requester_id && step.approver_ids.includes(d) && !step.approved_by.includes(d)) ?? null;
}

export type ReresolveResult = { ok: true; instance: InstanceState; open_index: number; open_changed: boolean } | { ok: false; message: string };

/**
 * Issue 29, "PATCH approval instance policy": a running instance re-resolved with a newer chain.
 * Steps already decided (APPROVED) and an open step someone already approved stay as they are,
 * in place; the rest is replaced by the new chain's steps not kept (by step id). The first of them
 * opens when nothing kept is open. A chain left with nothing to decide is refused: re-resolving
 * never approves an object silently.
 */
export function reresolveInstance(inst: InstanceState, chain: Chain): ReresolveResult {
  if (inst.status !== 'PENDING') return { ok: false, message: `This approval is ${inst.status.toLowerCase()}: its chain cannot change.` };
  const openIndex = currentStepIndex(inst);
  const kept = inst.steps.filter((s, i) => s.status === 'APPROVED' || (i === openIndex && s.approved_by.length > 0));
  const keptIds = new Set(kept.map((s) => s.step_id));
  const keptOpen = kept.some((s) => s.status === 'PENDING');
  const fresh = chain.steps.filter((s) => !keptIds.has(s.step_id)).map((s): InstanceStep => ({ ...s, status: 'WAITING', approved_by: [] }));
  const steps = [...kept.map((s) => ({ ...s })), ...fresh];
  const open = keptOpen ? steps.findIndex((s) => s.status === 'PENDING') : kept.length;
  if (!steps[open]) return { ok: false, message: 'The current policy leaves no step to decide on this approval: approve or reject it instead.' };
  steps[open]!.status = 'PENDING';
  const before = inst.steps[openIndex]!;
  const after = steps[open]!;
  const openChanged = open !== openIndex || before.step_id !== after.step_id
    || before.mode !== after.mode || before.approver_ids.join() !== after.approver_ids.join();
  return { ok: true, instance: { ...inst, steps }, open_index: open, open_changed: openChanged };
}

/** The approval groups a policy's steps name (issue 29: a group in use is not deleted). */
export const referencedGroupIds = (policy: Policy): string[] =>
  [...new Set(policy.steps.flatMap((s) => (s.approvers.kind === 'approval_group' ? [s.approvers.group_id] : [])))];

export type ReorderResult = { ok: true; instance: InstanceState } | { ok: false; field: 'step_id' | 'position'; message: string };

/**
 * Moves a step that has not started (WAITING) to `position` (0-based), among the steps that have
 * not started either: what is decided or open stays where it is.
 */
export function reorderPendingStep(inst: InstanceState, stepId: string, position: number): ReorderResult {
  if (inst.status !== 'PENDING') return { ok: false, field: 'step_id', message: `This approval is ${inst.status.toLowerCase()}: its steps cannot be reordered.` };
  const from = inst.steps.findIndex((s) => s.step_id === stepId);
  if (from < 0) return { ok: false, field: 'step_id', message: 'step_id is not a step of this approval' };
  if (inst.steps[from]!.status !== 'WAITING') return { ok: false, field: 'step_id', message: 'Only a step that has not started can be reordered.' };
  const firstWaiting = inst.steps.findIndex((s) => s.status === 'WAITING');
  if (position < firstWaiting || position >= inst.steps.length) {
    return { ok: false, field: 'position', message: `position must be between ${firstWaiting} and ${inst.steps.length - 1} (steps not started)` };
  }
  const steps = [...inst.steps];
  const [moved] = steps.splice(from, 1);
  steps.splice(position, 0, moved!);
  return { ok: true, instance: { ...inst, steps } };
}

/** Policy edit: a new step at `position` (the end when absent). */
export function addStep(policy: Policy, step: PolicyStep, position?: number): { ok: true; policy: Policy } | { ok: false; message: string } {
  if (policy.steps.length >= MAX_POLICY_STEPS) return { ok: false, message: `A policy has at most ${MAX_POLICY_STEPS} steps.` };
  if (policy.steps.some((s) => s.id === step.id)) return { ok: false, message: 'id is already a step of this policy' };
  const at = position === undefined ? policy.steps.length : Math.min(position, policy.steps.length);
  const steps = [...policy.steps];
  steps.splice(at, 0, step);
  return { ok: true, policy: { ...policy, steps } };
}

/** The users a step names by id (user and group approvers), for the existence check. */
export function referencedUserIds(policy: Policy): string[] {
  const out = new Set<string>();
  for (const s of policy.steps) {
    if (s.approvers.kind === 'user') out.add(s.approvers.user_id);
    if (s.approvers.kind === 'group') for (const id of s.approvers.user_ids) out.add(id);
  }
  return [...out];
}

/** Who approves next: the open step's approvers who have not approved yet (the reminder's list). */
export function nextApprovers(inst: InstanceState): string[] {
  const step = inst.steps[currentStepIndex(inst)];
  return step ? step.approver_ids.filter((id) => !step.approved_by.includes(id)) : [];
}
