import { describe, expect, it } from 'vitest';
import {
  NO_STEP_APPLIES, addStep, decide, defaultPolicy, nextApprovers, policySchema, reorderPendingStep, resolveChain, startInstance,
  type ApproverSpec, type DirectoryUser, type InstanceState, type Policy, type PolicyStep, type StepCondition, type Subject,
} from './approval-policy.ts';

/** A small business: an owner, an admin, a bookkeeper, a manager with two reports, an inactive user. */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const U = { owner: id(1), admin: id(2), keeper: id(3), manager: id(4), emp: id(5), mate: id(6), gone: id(7), cfo: id(8) };
const D = { eng: id(100), ops: id(101) };
const V = { aws: id(200) };
const E = { us: id(300) };
const user = (over: Partial<DirectoryUser> & { id: string }): DirectoryUser => ({ role: 'BUSINESS_USER', manager_id: null, active: true, ...over });
const USERS: DirectoryUser[] = [
  user({ id: U.owner, role: 'BUSINESS_OWNER' }),
  user({ id: U.admin, role: 'BUSINESS_ADMIN' }),
  user({ id: U.keeper, role: 'BUSINESS_BOOKKEEPER' }),
  user({ id: U.manager }),
  user({ id: U.emp, manager_id: U.manager }),
  user({ id: U.mate, manager_id: U.manager }),
  user({ id: U.gone, active: false }),
  user({ id: U.cfo, role: 'BUSINESS_ADMIN', manager_id: U.owner }),
];
const subject = (over: Partial<Subject> = {}): Subject => ({ requester_id: U.emp, amount: 10_000, currency: 'USD', department_id: D.eng, ...over });
let stepNo = 0;
const step = (approvers: ApproverSpec, condition: StepCondition | null = null): PolicyStep => ({ id: id(1000 + ++stepNo), condition, approvers });
const policy = (...steps: PolicyStep[]): Policy => policySchema.parse({ object_type: 'reimbursement', steps });
const admins = [U.owner, U.admin, U.cfo];

describe('resolveChain: which steps apply and who approves them', () => {
  const rows: [string, PolicyStep, Subject, string[] | null, ('any' | 'all')?, boolean?][] = [
    ['the manager of the requester', step({ kind: 'manager' }), subject(), [U.manager]],
    ['no manager: the admins stand in', step({ kind: 'manager' }), subject({ requester_id: U.manager }), admins, 'any', true],
    ['a named user', step({ kind: 'user', user_id: U.keeper }), subject(), [U.keeper]],
    ['an inactive named user: the admins', step({ kind: 'user', user_id: U.gone }), subject(), admins, 'any', true],
    ['a role: every active holder', step({ kind: 'role', role: 'BUSINESS_ADMIN' }), subject(), [U.admin, U.cfo]],
    ['a role: its holders but the requester', step({ kind: 'role', role: 'BUSINESS_ADMIN' }), subject({ requester_id: U.admin }), [U.cfo]],
    ['a role held only by the requester: the admins, never the requester', step({ kind: 'role', role: 'BUSINESS_OWNER' }), subject({ requester_id: U.owner }), [U.admin, U.cfo], 'any', true],
    ['a group, all', step({ kind: 'group', user_ids: [U.manager, U.keeper], mode: 'all' }), subject(), [U.manager, U.keeper], 'all'],
    ['a group, any', step({ kind: 'group', user_ids: [U.manager, U.keeper], mode: 'any' }), subject(), [U.manager, U.keeper], 'any'],
    ['a group without the requester', step({ kind: 'group', user_ids: [U.emp, U.keeper], mode: 'all' }), subject(), [U.keeper], 'all'],
    ['a group of only the requester: the admins', step({ kind: 'group', user_ids: [U.emp], mode: 'all' }), subject(), admins, 'any', true],
    ['at the threshold', step({ kind: 'manager' }, { min_amount: { amount: 10_000, currency: 'USD' } }), subject(), [U.manager]],
    ['below the threshold: skipped', step({ kind: 'manager' }, { min_amount: { amount: 10_001, currency: 'USD' } }), subject(), null],
    ['another currency: skipped', step({ kind: 'manager' }, { min_amount: { amount: 1, currency: 'EUR' } }), subject(), null],
    ['the department listed', step({ kind: 'manager' }, { department_ids: [D.ops, D.eng] }), subject(), [U.manager]],
    ['another department: skipped', step({ kind: 'manager' }, { department_ids: [D.ops] }), subject(), null],
    ['no department on the object: skipped', step({ kind: 'manager' }, { department_ids: [D.eng] }), subject({ department_id: null }), null],
    ['vendor matches', step({ kind: 'manager' }, { vendor_ids: [V.aws] }), subject({ vendor_id: V.aws }), [U.manager]],
    ['entity mismatch: skipped', step({ kind: 'manager' }, { entity_ids: [E.us] }), subject(), null],
    ['every clause must match', step({ kind: 'manager' }, { department_ids: [D.eng], min_amount: { amount: 50_000, currency: 'USD' } }), subject(), null],
  ];
  it.each(rows)('%s', (_name, s, subj, expected, mode = 'any', fallback = false) => {
    const chain = resolveChain(policy(s), subj, USERS);
    expect(chain.trace[0]!.applies).toBe(expected !== null);
    if (expected === null) return expect(chain.steps.map((x) => x.step_id)).toEqual([NO_STEP_APPLIES]);
    expect(chain.steps).toEqual([{ step_id: s.id, mode, approver_ids: expected, fallback }]);
  });

  it('keeps the policy order and names why a skipped step was skipped', () => {
    const big = step({ kind: 'user', user_id: U.cfo }, { min_amount: { amount: 100_000, currency: 'USD' } });
    const chain = resolveChain(policy(step({ kind: 'manager' }), big, step({ kind: 'user', user_id: U.keeper })), subject(), USERS);
    expect(chain.steps.map((s) => s.approver_ids)).toEqual([[U.manager], [U.keeper]]);
    expect(chain.trace[1]).toEqual({ step_id: big.id, applies: false, reason: 'amount 10000 is below the threshold 100000' });
  });

  it('the default policy is today\'s review: the manager, else the admins', () => {
    expect(resolveChain(defaultPolicy('reimbursement'), subject(), USERS).steps.map((s) => s.approver_ids)).toEqual([[U.manager]]);
    expect(resolveChain(defaultPolicy('card'), subject({ requester_id: U.owner }), USERS).steps[0]).toMatchObject({ approver_ids: [U.admin, U.cfo], fallback: true });
  });

  it('refuses a malformed policy through its schema', () => {
    expect(policySchema.safeParse({ object_type: 'bill', steps: [{ id: id(1), condition: null, approvers: { kind: 'group', user_ids: [], mode: 'any' } }] }).success).toBe(false);
    expect(policySchema.safeParse({ object_type: 'invoice', steps: [] }).success).toBe(false);
    expect(policySchema.safeParse({ object_type: 'bill', steps: [{ id: id(1), condition: { min_amount: { amount: -1, currency: 'USD' } }, approvers: { kind: 'manager' } }] }).success).toBe(false);
  });
});

/** A started instance of the given steps for the employee's 10,000 USD claim. */
const started = (...steps: PolicyStep[]): InstanceState => startInstance(U.emp, resolveChain(policy(...steps), subject(), USERS));
function approveAll(inst: InstanceState, moves: [number, string, 'APPROVED' | 'REJECTED', boolean?][]): InstanceState {
  for (const [index, who, decision, override] of moves) {
    const r = decide(inst, index, who, decision, { override: override ?? false });
    if (!r.ok) throw new Error(r.message);
    inst = r.instance;
  }
  return inst;
}

describe('decide: the instance state machine', () => {
  it('no step applies: nothing is approved silently, the admins review it', () => {
    const inst = started(step({ kind: 'manager' }, { min_amount: { amount: 1e9, currency: 'USD' } }));
    expect(inst).toMatchObject({ status: 'PENDING', steps: [{ step_id: NO_STEP_APPLIES, approver_ids: admins, fallback: true, status: 'PENDING' }] });
  });

  it('an any-one step completes on its first approval and opens the next', () => {
    const inst = approveAll(started(step({ kind: 'group', user_ids: [U.manager, U.keeper], mode: 'any' }), step({ kind: 'user', user_id: U.cfo })), [[0, U.keeper, 'APPROVED']]);
    expect(inst.steps.map((s) => s.status)).toEqual(['APPROVED', 'PENDING']);
    expect(nextApprovers(inst)).toEqual([U.cfo]);
    expect(approveAll(inst, [[1, U.cfo, 'APPROVED']]).status).toBe('APPROVED');
  });

  it('an all step waits for every approver', () => {
    const all = step({ kind: 'group', user_ids: [U.manager, U.keeper], mode: 'all' });
    const half = approveAll(started(all), [[0, U.manager, 'APPROVED']]);
    expect(half).toMatchObject({ status: 'PENDING', steps: [{ status: 'PENDING', approved_by: [U.manager] }] });
    expect(nextApprovers(half)).toEqual([U.keeper]);
    expect(approveAll(half, [[0, U.keeper, 'APPROVED']]).status).toBe('APPROVED');
  });

  it('one rejection rejects the instance', () => {
    const inst = approveAll(started(step({ kind: 'group', user_ids: [U.manager, U.keeper], mode: 'all' }), step({ kind: 'user', user_id: U.cfo })), [[0, U.manager, 'REJECTED']]);
    expect(inst.status).toBe('REJECTED');
    expect(inst.steps.map((s) => s.status)).toEqual(['REJECTED', 'WAITING']);
  });

  const refusals: [string, [number, string, boolean?], string][] = [
    ['nobody approves their own item, even an admin override', [0, U.emp, true], 'own_item'],
    ['a later step is not open yet', [1, U.cfo], 'not_current'],
    ['someone outside the step', [0, U.mate], 'not_approver'],
  ];
  it.each(refusals)('refuses: %s', (_name, [index, who, override], refusal) => {
    const r = decide(started(step({ kind: 'manager' }), step({ kind: 'user', user_id: U.cfo })), index, who, 'APPROVED', { override: override ?? false });
    expect(r).toMatchObject({ ok: false, refusal });
  });

  it('refuses a second approval by the same person and any decision on a closed instance', () => {
    const all = step({ kind: 'group', user_ids: [U.manager, U.keeper], mode: 'all' });
    expect(decide(approveAll(started(all), [[0, U.manager, 'APPROVED']]), 0, U.manager, 'APPROVED')).toMatchObject({ refusal: 'already_approved' });
    expect(decide(approveAll(started(all), [[0, U.manager, 'REJECTED']]), 0, U.keeper, 'APPROVED')).toMatchObject({ refusal: 'closed' });
  });

  it('an override (admin, bookkeeper) completes the open step in the approvers\' stead', () => {
    const inst = approveAll(started(step({ kind: 'group', user_ids: [U.manager, U.mate], mode: 'all' })), [[0, U.keeper, 'APPROVED', true]]);
    expect(inst.status).toBe('APPROVED');
  });
});

describe('reorderPendingStep', () => {
  const three = () => started(step({ kind: 'manager' }), step({ kind: 'user', user_id: U.keeper }), step({ kind: 'user', user_id: U.cfo }));
  it('moves a step that has not started among those that have not', () => {
    const inst = three();
    const r = reorderPendingStep(inst, inst.steps[2]!.step_id, 1);
    expect(r.ok && r.instance.steps.map((s) => s.approver_ids[0])).toEqual([U.manager, U.cfo, U.keeper]);
  });
  it('refuses to move the open step, to move before it, or an unknown step', () => {
    const inst = three();
    expect(reorderPendingStep(inst, inst.steps[0]!.step_id, 2).ok).toBe(false);
    expect(reorderPendingStep(inst, inst.steps[2]!.step_id, 0).ok).toBe(false);
    expect(reorderPendingStep(inst, id(9), 1).ok).toBe(false);
    expect(reorderPendingStep(approveAll(inst, [[0, U.manager, 'REJECTED']]), inst.steps[2]!.step_id, 1).ok).toBe(false);
  });
});

describe('addStep', () => {
  it('inserts at a position or at the end, and refuses a duplicate id', () => {
    const a = step({ kind: 'manager' });
    const b = step({ kind: 'user', user_id: U.cfo });
    const r = addStep(policy(a), b, 0);
    expect(r.ok && r.policy.steps.map((s) => s.id)).toEqual([b.id, a.id]);
    expect(addStep(policy(a), a).ok).toBe(false);
    const end = addStep(policy(a), b);
    expect(end.ok && end.policy.steps.map((s) => s.id)).toEqual([a.id, b.id]);
  });
});
