import type { z } from 'zod';
import {
  changeUserRole, deleteUser, getUser, inviteUser, listEntities, lookupInvite, removeApClerk, resendInvite, suspendUser, unsuspendUser, updateUser,
  type AdminUser,
} from '../../schema/api/calls-admin.ts';
import { passwordlessSend } from '../../schema/api/calls-identity.ts';
import type { Role } from '../../schema/roles.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/**
 * A team call's refusal. `offline`: nothing was sent (inviting and managing people are direct
 * calls, online only; the people list itself is the mirror's `users`).
 */
export type TeamFailure = OnlineFailure;
export type TeamUserResult = { ok: true; user: AdminUser } | TeamFailure;
export type InviteUserInput = z.input<typeof inviteUser.body>;
export type UpdateUserInput = z.input<typeof updateUser.body>;

/**
 * Refused before any request: inviting and managing people are direct calls (the server decides
 * roles, reporting lines and who may sign in; none of it can wait on a device), so they need a
 * connection. The page keeps what the person entered.
 */
export const TEAM_OFFLINE = offlineFailure('You’re offline. Inviting and managing people needs a connection: nothing was sent.');

const user = (id: string) => ({ user_uuid: id });
const asUser = (u: AdminUser) => ({ user: u });

/**
 * Team administration (issue 14; schema/api/calls-admin.ts): direct calls, online only. Every
 * write also reaches the mirror through the feed (users are reference data), so the answer's
 * user is only what the page shows until the mirror has it. `inviteDetails` and
 * `sendSignInLink` are public (no session): the invite and sign-in pages call them signed out,
 * through the same client (the token in the link is the credential).
 */
export const TEAM_CALLS = onlineDomain(TEAM_OFFLINE, {
  teamUser: via(getUser, (id: string) => ({ params: user(id) }), asUser),
  inviteUser: via(inviteUser, (body: InviteUserInput) => ({ body }), (d) => ({ user: d.user, expires_at: d.invite.expires_at })),
  resendInvite: via(resendInvite, (id: string) => ({ params: user(id), body: {} }), (d) => ({ user: d.user, expires_at: d.invite.expires_at })),
  changeUserRole: via(changeUserRole, (id: string, role: Role, isManager?: boolean) =>
    ({ params: user(id), body: isManager === undefined ? { role } : { role, is_manager: isManager } }), asUser),
  /**
   * `baseSeq` (issue 24): the person's `change_seq` as the page showed them, sent as If-Match; a
   * field someone else changed since answers 409 CONFLICT with the details (nothing applied).
   */
  updateUser: via(updateUser, (id: string, patch: UpdateUserInput, baseSeq?: number) =>
    ({ params: user(id), body: patch, ...(baseSeq !== undefined ? { ifMatch: baseSeq } : {}) }), asUser),
  suspendUser: via(suspendUser, (id: string) => ({ params: user(id), body: {} }), asUser),
  unsuspendUser: via(unsuspendUser, (id: string) => ({ params: user(id) }), asUser),
  deleteUser: via(deleteUser, (id: string) => ({ params: user(id) })),
  /** Issue 29: takes AP clerk access (AP_ACCESS) away; the answer's `user_permissions` is what remains. */
  removeApClerk: via(removeApClerk, (id: string) => ({ params: user(id) }), asUser),
  businessEntities: via(listEntities, () => ({}), (d) => ({ entities: d.data })),
  inviteDetails: via(lookupInvite, (token: string) => ({ params: { token } }), (invite) => ({ invite })),
  /** Always ok when the server answered (204, no body): it never says whether the email has an account. */
  sendSignInLink: via(passwordlessSend, (email: string) => ({ body: { email } })),
});

export type TeamApi = OnlineApi<typeof TEAM_CALLS>;

export const teamHandlers = (port: OnlinePort): TeamApi => bindDomain(port, TEAM_CALLS);
