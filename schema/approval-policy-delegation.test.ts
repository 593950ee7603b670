import { describe, expect, it } from 'vitest';
import {
  decide, delegatorFor, policySchema, referencedGroupIds, reresolveInstance, resolveChain, startInstance,
  type ApproverSpec, type Chain, type DirectoryUser, type GroupDirectory, type InstanceState, type PolicyStep, type Subject,
} from './approval-policy.ts';

/** Issue 29: named groups in the resolution, decisions through a delegation, and re-resolving a running instance. */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const U = { owner: id(1), admin: id(2), keeper: id(3), manager: id(4), emp: id(5), mate: id(6), gone: id(7) };
const G = { leads: id(500), missing: id(501) };
const user = (over: Partial<DirectoryUser> & { id: string }): DirectoryUser => ({ role: 'BUSINESS_USER', manager_id: null, active: true, ...over });
const USERS: DirectoryUser[] = [
  user({ id: U.owner, role: 'BUSINESS_OWNER' }), user({ id: U.admin, role: 'BUSINESS_ADMIN' }), user({ id: U.keeper, role: 'BUSINESS_BOOKKEEPER' }),
  user({ id: U.manager }), user({ id: U.emp, manager_id: U.manager }), user({ id: U.mate, manager_id: U.emp }), user({ id: U.gone, active: false }),
];
const GROUPS: GroupDirectory = new Map([[G.leads, { user_ids: [U.keeper, U.manager, U.gone], mode: 'all' }]]);
const subject = (over: Partial<Subject> = {}): Subject => ({ requester_id: U.emp, amount: 10_000, currency: 'USD', ...over });
let n = 0;
const step = (approvers: ApproverSpec): PolicyStep => ({ id: id(1000 + ++n), condition: null, approvers });
const chainOf = (...steps: PolicyStep[]): Chain => resolveChain(policySchema.parse({ object_type: 'bill', steps }), subject(), USERS, GROUPS);

describe('resolveChain with named approval groups', () => {
  const rows: [string, string, Subject, string[], 'any' | 'all', boolean][] = [
    ['the group\'s active members, in its mode', G.leads, subject(), [U.keeper, U.manager], 'all', false],
    ['never the requester, even as a member', G.leads, subject({ requester_id: U.manager }), [U.keeper], 'all', false],
    ['a group no longer there: the admins stand in', G.missing, subject(), [U.owner, U.admin], 'any', true],
  ];
  it.each(rows)('%s', (_what, groupId, s, approvers, mode, fallback) => {
    const chain = resolveChain(policySchema.parse({ object_type: 'bill', steps: [step({ kind: 'approval_group', group_id: groupId })] }), s, USERS, GROUPS);
    expect(chain.steps.map((x) => [x.approver_ids, x.mode, x.fallback])).toEqual([[approvers, mode, fallback]]);
  });

  it('lists the groups a policy names, once each', () => {
    const p = policySchema.parse({ object_type: 'card', steps: [step({ kind: 'approval_group', group_id: G.leads }), step({ kind: 'manager' }), step({ kind: 'approval_group', group_id: G.leads })] });
    expect(referencedGroupIds(p)).toEqual([G.leads]);
  });
});

describe('decide through a delegation', () => {
  const start = (): InstanceState => startInstance(U.emp, chainOf(step({ kind: 'manager' }), step({ kind: 'user', user_id: U.keeper })));

  it('counts as the delegator\'s approval and records "by X for Y"', () => {
    const r = decide(start(), 0, U.mate, 'APPROVED', { actingFor: U.manager });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.instance.steps[0]).toMatchObject({ status: 'APPROVED', approved_by: [U.manager], delegated: [{ by: U.mate, for: U.manager }] });
    expect(r.instance.steps[1]!.status).toBe('PENDING');
  });

  const refusals: [string, string, string, string][] = [
    ['the requester deciding as a delegate', U.emp, U.manager, 'own_item'],
    ['a delegate standing in for the requester', U.mate, U.emp, 'own_item'],
    ['standing in for someone who is not the step\'s approver', U.mate, U.keeper, 'not_approver'],
  ];
  it.each(refusals)('refuses %s', (_what, by, forWhom, refusal) => {
    const r = decide(start(), 0, by, 'APPROVED', { actingFor: forWhom, override: true });
    expect(r).toMatchObject({ ok: false, refusal });
  });

  it('picks a delegator among the open step\'s approvers who has not approved, never the requester', () => {
    const inst = startInstance(U.emp, chainOf(step({ kind: 'approval_group', group_id: G.leads })));
    expect(delegatorFor(inst, 0, [U.owner, U.manager])).toBe(U.manager);
    expect(delegatorFor(inst, 0, [U.owner])).toBeNull();
    expect(delegatorFor(inst, 0, [U.emp])).toBeNull();
    const half = decide(inst, 0, U.manager, 'APPROVED');
    expect(half.ok && delegatorFor(half.instance, 0, [U.manager, U.keeper])).toBe(U.keeper);
  });
});

describe('reresolveInstance: the current policy on a running instance', () => {
  const a = step({ kind: 'manager' });
  const b = step({ kind: 'user', user_id: U.keeper });
  const c = step({ kind: 'user', user_id: U.owner });

  it('keeps decided steps and replaces the open one and the rest', () => {
    const first = decide(startInstance(U.emp, chainOf(a, b)), 0, U.manager, 'APPROVED');
    if (!first.ok) throw new Error(first.message);
    const r = reresolveInstance(first.instance, chainOf(a, c));
    expect(r.ok && r.instance.steps.map((s) => [s.step_id, s.status])).toEqual([[a.id, 'APPROVED'], [c.id, 'PENDING']]);
    expect(r.ok && [r.open_index, r.open_changed]).toEqual([1, true]);
  });

  it('keeps an open "all" step someone already approved, and says nothing changed when the chain is the same', () => {
    const g = step({ kind: 'approval_group', group_id: G.leads });
    const half = decide(startInstance(U.emp, chainOf(g, b)), 0, U.keeper, 'APPROVED');
    if (!half.ok) throw new Error(half.message);
    const r = reresolveInstance(half.instance, chainOf(g, b));
    expect(r.ok && r.instance.steps.map((s) => [s.status, s.approved_by])).toEqual([['PENDING', [U.keeper]], ['WAITING', []]]);
    expect(r.ok && r.open_changed).toBe(false);
  });

  it('refuses to leave nothing to decide, and a closed instance', () => {
    const first = decide(startInstance(U.emp, chainOf(a, b)), 0, U.manager, 'APPROVED');
    if (!first.ok) throw new Error(first.message);
    expect(reresolveInstance(first.instance, chainOf(a)).ok).toBe(false);
    const done = decide(first.instance, 1, U.keeper, 'APPROVED');
    if (!done.ok) throw new Error(done.message);
    expect(reresolveInstance(done.instance, chainOf(c))).toMatchObject({ ok: false });
  });
});
