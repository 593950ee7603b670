import { describe, expect, it } from 'vitest';
import { apClerkRemovalRefusal, assignableRoles, canInvite, delegateFlagRefusal, invitableRoles, inviteRefusal, managerChain, managerRefusal, ownerRefusal, resendRefusal, roleFlagRefusal } from './team-rules.ts';

const OWNER = { id: 'o', role: 'BUSINESS_OWNER', is_manager: false };
const ADMIN = { id: 'a', role: 'BUSINESS_ADMIN', is_manager: false };
const MANAGER = { id: 'm', role: 'BUSINESS_USER', is_manager: true };
const EMPLOYEE = { id: 'e', role: 'BUSINESS_USER', is_manager: false };
const ON = { disable_invites_by_managers: false };
const OFF = { disable_invites_by_managers: true };

describe('inviteRefusal', () => {
  it.each([
    [OWNER, 'BUSINESS_OWNER', null, ON, null],
    [ADMIN, 'BUSINESS_OWNER', null, ON, 'Only an owner can invite an owner.'],
    [ADMIN, 'BUSINESS_ADMIN', 'x', OFF, null],
    [MANAGER, 'BUSINESS_USER', null, ON, null],
    [MANAGER, 'BUSINESS_USER', 'm', ON, null],
    [MANAGER, 'BUSINESS_USER', 'x', ON, 'Managers can invite only their own reports.'],
    [MANAGER, 'BUSINESS_ADMIN', null, ON, 'Managers can invite employees only.'],
    [MANAGER, 'BUSINESS_USER', null, OFF, 'Invites by managers are turned off for this business.'],
    [EMPLOYEE, 'BUSINESS_USER', null, ON, 'Only administrators and managers can invite users.'],
  ] as const)('%j invites %s (manager %s) → %s', (actor, role, manager, flags, expected) => {
    expect(inviteRefusal(actor, { role, manager_id: manager }, flags)).toBe(expected);
  });

  it('canInvite and invitableRoles follow it', () => {
    expect([canInvite(ADMIN, OFF), canInvite(MANAGER, ON), canInvite(MANAGER, OFF), canInvite(EMPLOYEE, ON)]).toEqual([true, true, false, false]);
    expect(invitableRoles(MANAGER, ['BUSINESS_ADMIN', 'BUSINESS_USER'], { ...ON, auditor_role: true })).toEqual(['BUSINESS_USER']);
    expect(invitableRoles(ADMIN, ['BUSINESS_OWNER', 'BUSINESS_ADMIN'], { ...ON, auditor_role: true })).toEqual(['BUSINESS_ADMIN']);
    expect(invitableRoles(MANAGER, ['BUSINESS_USER'], { ...OFF, auditor_role: true })).toEqual([]);
  });
});

describe('auditor_role (§3): the Auditor role is given only while the flag is on', () => {
  const roles = ['BUSINESS_ADMIN', 'AUDITOR', 'BUSINESS_USER'] as const;
  it('roleFlagRefusal refuses AUDITOR alone, in words that say where to turn it on', () => {
    expect(roleFlagRefusal('AUDITOR', { auditor_role: false })).toMatch(/Auditor role is turned off.*Settings → Feature flags/);
    expect(roleFlagRefusal('AUDITOR', { auditor_role: true })).toBeNull();
    expect(roleFlagRefusal('IT_ADMIN', { auditor_role: false })).toBeNull();
  });
  it('invites offer it only with the flag on', () => {
    expect(invitableRoles(OWNER, roles, { ...ON, auditor_role: false })).toEqual(['BUSINESS_ADMIN', 'BUSINESS_USER']);
    expect(invitableRoles(OWNER, roles, { ...ON, auditor_role: true })).toEqual([...roles]);
  });
  it('role changes offer it only with the flag on; someone who holds it keeps it in the list', () => {
    expect(assignableRoles(ADMIN, EMPLOYEE, roles, { auditor_role: false })).toEqual(['BUSINESS_ADMIN', 'BUSINESS_USER']);
    expect(assignableRoles(ADMIN, EMPLOYEE, roles, { auditor_role: true })).toEqual([...roles]);
    expect(assignableRoles(ADMIN, { id: 'x', role: 'AUDITOR' }, roles, { auditor_role: false })).toEqual([...roles]);
    expect(assignableRoles(ADMIN, EMPLOYEE, ['BUSINESS_OWNER', 'BUSINESS_USER'], { auditor_role: true })).toEqual(['BUSINESS_USER']);
  });
});

describe('it_admin_can_be_assistant (§3): an IT admin is named a delegate only while the flag is on', () => {
  it.each([
    ['IT_ADMIN', false, /IT admins cannot be approval delegates.*Settings → Feature flags/],
    ['IT_ADMIN', true, null],
    ['BUSINESS_USER', false, null],
    ['BUSINESS_ADMIN', false, null],
  ] as const)('%s with the flag %s → %s', (role, on, expected) => {
    const r = delegateFlagRefusal({ role }, { it_admin_can_be_assistant: on });
    if (expected === null) expect(r).toBeNull();
    else expect(r).toMatch(expected);
  });
});

describe('resendRefusal', () => {
  const invited = { id: 't', role: 'BUSINESS_USER', status: 'INVITED', manager_id: 'm' };
  it('needs a pending or expired invite, and the right to invite the person as they are', () => {
    expect(resendRefusal(MANAGER, invited, ON)).toBeNull();
    expect(resendRefusal(MANAGER, { ...invited, status: 'INVITE_EXPIRED' }, ON)).toBeNull();
    expect(resendRefusal(ADMIN, { ...invited, status: 'ACTIVE' }, ON)?.code).toBe('REQUEST_7001');
    expect(resendRefusal(MANAGER, { ...invited, manager_id: null }, ON)).toEqual({ code: 'FORBIDDEN_7003', message: 'Managers can invite only their own reports.' });
  });
});

describe('ownerRefusal', () => {
  const owner = { id: 'o2', role: 'BUSINESS_OWNER' };
  it.each([
    [ADMIN, owner, 'suspend', undefined, 'Only an owner can suspend an owner.'],
    [OWNER, owner, 'delete', undefined, null],
    [ADMIN, ADMIN, 'delete', undefined, 'You cannot delete yourself.'],
    [ADMIN, EMPLOYEE, 'role', 'BUSINESS_OWNER', 'Only an owner can grant or remove the owner role.'],
    [ADMIN, EMPLOYEE, 'role', 'BUSINESS_ADMIN', null],
    [MANAGER, EMPLOYEE, 'suspend', undefined, 'Only administrators can manage the business.'],
  ] as const)('%j %s %j → %s', (actor, target, action, role, expected) => {
    expect(ownerRefusal(actor, target, action, role)).toBe(expected);
  });
});

describe('apClerkRemovalRefusal', () => {
  const clerk = { role: 'BUSINESS_USER', user_permissions: ['AP_ACCESS'] };
  const ownerClerk = { role: 'BUSINESS_OWNER', user_permissions: ['AP_ACCESS', 'COPILOT'] };
  it.each([
    [ADMIN, clerk, null],
    [OWNER, ownerClerk, null],
    [ADMIN, ownerClerk, { code: 'FORBIDDEN_7003', message: 'Only an owner can change an owner’s access.' }],
    [ADMIN, { role: 'BUSINESS_USER', user_permissions: ['COPILOT'] }, { code: 'REQUEST_7004', message: 'This person does not have AP clerk access.' }],
    [MANAGER, clerk, { code: 'FORBIDDEN_7003', message: 'Only administrators can manage the business.' }],
    [{ role: 'BUSINESS_BOOKKEEPER' }, clerk, { code: 'FORBIDDEN_7003', message: 'Only administrators can manage the business.' }],
  ] as const)('%j removing %j → %j', (actor, target, expected) => {
    expect(apClerkRemovalRefusal(actor, target)).toEqual(expected);
  });
});

describe('reporting lines', () => {
  const managers: Record<string, string | null> = { a: 'b', b: 'c', c: null, x: 'y', y: 'x' };
  const of = (id: string) => managers[id];
  it('walks up the chain and stops at a loop', () => {
    expect(managerChain('a', of)).toEqual(['b', 'c']);
    expect(managerChain('x', of)).toEqual(['y']);
  });
  it('refuses self, inactive managers and loops', () => {
    const chain = (id: string) => managerChain(id, of);
    expect(managerRefusal('c', { id: 'a', status: 'ACTIVE' }, chain)).toMatch(/loop/);
    expect(managerRefusal('a', { id: 'a', status: 'ACTIVE' }, chain)).toBe('A person cannot be their own manager.');
    expect(managerRefusal('a', { id: 'c', status: 'SUSPENDED' }, chain)).toBe('The manager must be an active user.');
    expect(managerRefusal('a', { id: 'c', status: 'ACTIVE' }, chain)).toBeNull();
    expect(managerRefusal('a', null, chain)).toBeNull();
  });
});
