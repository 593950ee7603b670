import type { FeatureFlags } from './feature-flags.ts';
import { isAdmin, isApClerk, type Actor, type Role } from './roles.ts';

/**
 * Team administration rules (issue 14, §6), shared by the server (which enforces them) and the
 * Team pages (which offer only what the server would allow, in the same words).
 */

type InviteActor = Pick<Actor, 'id' | 'role' | 'is_manager'>;
type InviteFlags = Pick<FeatureFlags, 'disable_invites_by_managers'>;
/** The flags that decide which roles may be given at all (§3 `auditor_role`). */
export type RoleFlags = Pick<FeatureFlags, 'auditor_role'>;
/** Everything the team rules read of the business's flags. */
export type TeamFlags = InviteFlags & RoleFlags;

/**
 * §3 `auditor_role`: the Auditor role is given (in an invite or a role change) only while the
 * business has the flag on; people who already hold it keep it when it goes off. The server
 * refuses with these words (422 on `role`); the Team pages do not offer the role. Null when allowed.
 */
export function roleFlagRefusal(role: string, flags: RoleFlags): string | null {
  return role === 'AUDITOR' && !flags.auditor_role
    ? 'The Auditor role is turned off for this business. An owner or admin can turn it on in Settings → Feature flags.'
    : null;
}

/**
 * Who may invite whom: admins anyone (only an owner may invite an owner); a manager may invite
 * employees (BUSINESS_USER) reporting to themselves unless the business turned
 * `disable_invites_by_managers` on. Returns the refusal message, or null when allowed.
 */
export function inviteRefusal(actor: InviteActor, invite: { role: Role; manager_id?: string | null | undefined }, flags: InviteFlags): string | null {
  if (isAdmin(actor)) {
    return invite.role === 'BUSINESS_OWNER' && actor.role !== 'BUSINESS_OWNER' ? 'Only an owner can invite an owner.' : null;
  }
  if (!actor.is_manager) return 'Only administrators and managers can invite users.';
  if (flags.disable_invites_by_managers) return 'Invites by managers are turned off for this business.';
  if (invite.role !== 'BUSINESS_USER') return 'Managers can invite employees only.';
  if (invite.manager_id && invite.manager_id !== actor.id) return 'Managers can invite only their own reports.';
  return null;
}

/**
 * §3 `it_admin_can_be_assistant`: an IT admin may be named someone's approval delegate (their
 * assistant, "copilot") only while the business has the flag on. Delegations already set run on.
 * The server refuses a new one in these words (422 on `delegate_id`); Settings does not offer them.
 */
export function delegateFlagRefusal(delegate: Pick<Actor, 'role'>, flags: Pick<FeatureFlags, 'it_admin_can_be_assistant'>): string | null {
  return delegate.role === 'IT_ADMIN' && !flags.it_admin_can_be_assistant
    ? 'IT admins cannot be approval delegates in this business. An owner or admin can allow it in Settings → Feature flags.'
    : null;
}

/** Whether the Team page offers "Invite people" at all. */
export const canInvite = (actor: InviteActor, flags: InviteFlags) =>
  inviteRefusal(actor, { role: 'BUSINESS_USER', manager_id: actor.id }, flags) === null;

/**
 * The roles the actor may give in an invite under the business's flags (the server refuses the
 * rest with inviteRefusal's or roleFlagRefusal's words).
 */
export function invitableRoles(actor: InviteActor, roles: readonly Role[], flags: TeamFlags): Role[] {
  return roles.filter((role) => inviteRefusal(actor, { role, manager_id: actor.id }, flags) === null && roleFlagRefusal(role, flags) === null);
}

/**
 * The roles a person's role may be changed to: their own always (nothing changes), else what
 * ownerRefusal and roleFlagRefusal allow (the server's changeRole runs the same two).
 */
export function assignableRoles(actor: Pick<Actor, 'id' | 'role'>, target: Pick<Target, 'id' | 'role'>, roles: readonly Role[], flags: RoleFlags): Role[] {
  return roles.filter((r) => r === target.role || (ownerRefusal(actor, target, 'role', r) === null && roleFlagRefusal(r, flags) === null));
}

type Target = { id: string; role: string; status: string; manager_id: string | null };

/**
 * Resending: the actor must be allowed to invite the person as they are (a manager only their
 * own employees: an unmanaged person is not theirs; refused as a permission, FORBIDDEN_7003),
 * and the person must have a pending or expired invite (REQUEST_7001).
 */
export function resendRefusal(actor: InviteActor, target: Target, flags: InviteFlags): { code: 'FORBIDDEN_7003' | 'REQUEST_7001'; message: string } | null {
  const refusal = inviteRefusal(actor, { role: target.role as Role, manager_id: target.manager_id ?? 'unmanaged' }, flags);
  if (refusal) return { code: 'FORBIDDEN_7003', message: refusal };
  if (target.status !== 'INVITED' && target.status !== 'INVITE_EXPIRED') {
    return { code: 'REQUEST_7001', message: 'Only users with a pending or expired invite can be sent a new one.' };
  }
  return null;
}

const isOwnerRole = (role: string) => role === 'BUSINESS_OWNER';

/** Changing role, reporting line, department, location or entity, suspending and deleting: admins only. */
export function manageRefusal(actor: Pick<Actor, 'role'>): string | null {
  return isAdmin(actor) ? null : 'Only administrators can manage the business.';
}

/** Suspend / unsuspend / delete / role changes that touch an owner need an owner (the server's words). */
export function ownerRefusal(actor: Pick<Actor, 'id' | 'role'>, target: Pick<Target, 'id' | 'role'>, action: 'suspend' | 'delete' | 'role', newRole?: string): string | null {
  const manage = manageRefusal(actor);
  if (manage) return manage;
  if (action !== 'role' && actor.id === target.id) return `You cannot ${action} yourself.`;
  if (action === 'role') {
    return (isOwnerRole(target.role) || (newRole !== undefined && isOwnerRole(newRole))) && !isOwnerRole(actor.role)
      ? 'Only an owner can grant or remove the owner role.' : null;
  }
  return isOwnerRole(target.role) && !isOwnerRole(actor.role) ? `Only an owner can ${action} an owner.` : null;
}

/**
 * Taking AP clerk access (AP_ACCESS) away (issue 29, `admin.apClerks.remove`): admins only
 * (FORBIDDEN_7003); only an owner changes an owner's access (FORBIDDEN_7003); a person without
 * the permission is no AP clerk (REQUEST_7004). Bill pay never loses its last payer this way:
 * admins, who alone may do it, manage and pay bills themselves (§6 "manage bill pay").
 */
export function apClerkRemovalRefusal(
  actor: Pick<Actor, 'role'>, target: Pick<Actor, 'role' | 'user_permissions'>,
): { code: 'FORBIDDEN_7003' | 'REQUEST_7004'; message: string } | null {
  const manage = manageRefusal(actor);
  if (manage) return { code: 'FORBIDDEN_7003', message: manage };
  if (!isApClerk(target)) return { code: 'REQUEST_7004', message: 'This person does not have AP clerk access.' };
  if (isOwnerRole(target.role) && !isOwnerRole(actor.role)) return { code: 'FORBIDDEN_7003', message: 'Only an owner can change an owner’s access.' };
  return null;
}

/**
 * Reporting lines (admin.users.update): a manager must be an active person, not the person
 * themselves, and not one of their reports at any depth (a cycle would make everyone in it their
 * own manager). `chainOf(id)` walks up from the proposed manager; the server runs the same
 * check over the database, the page over its mirror.
 */
export function managerRefusal(userId: string, manager: { id: string; status: string } | null, chainOf: (id: string) => readonly string[]): string | null {
  if (!manager) return null;
  if (manager.id === userId) return 'A person cannot be their own manager.';
  if (manager.status !== 'ACTIVE') return 'The manager must be an active user.';
  if (chainOf(manager.id).includes(userId)) return 'That would make a loop in the reporting line: the new manager reports to this person.';
  return null;
}

/** The manager chain above `id` (its manager, theirs, …), stopping at a repeat. */
export function managerChain(id: string, managerOf: (id: string) => string | null | undefined): string[] {
  const chain: string[] = [];
  const seen = new Set([id]);
  for (let m = managerOf(id); m && !seen.has(m); m = managerOf(m)) {
    chain.push(m);
    seen.add(m);
  }
  return chain;
}

/** The status words of the people list (§8 words for the invite states in the drawer). */
export const USER_STATUS_LABELS = {
  ACTIVE: 'Active',
  INVITED: 'Invited',
  INVITE_EXPIRED: 'Invite expired',
  SUSPENDED: 'Suspended',
} as const;
export type UserStatus = keyof typeof USER_STATUS_LABELS;
