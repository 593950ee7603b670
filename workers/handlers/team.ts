import {
  changeUserRole, deleteUser, getUser, inviteUser, listEntities, lookupInvite, resendInvite, suspendUser, unsuspendUser, updateUser,
  type AdminUser,
} from '../../schema/api/calls-admin.ts';
import { passwordlessSend } from '../../schema/api/calls-identity.ts';
import type { CallDef, CallResponse } from '../../schema/api/define-call.ts';
import type { CallOptions } from '../../sync/index.ts';
import type { TeamApi, TeamFailure } from '../api.ts';
import { actionFailure } from '../identity.ts';
import type { WorkerContext } from '../worker-context.ts';

/**
 * Refused before any request: inviting and managing people are direct calls (the server decides
 * roles, reporting lines and who may sign in; none of it can wait on a device), so they need a
 * connection. The page keeps what the person entered.
 */
export const TEAM_OFFLINE: TeamFailure = {
  ok: false,
  offline: true,
  error: { error_code: 'OFFLINE', message: 'You’re offline. Inviting and managing people needs a connection: nothing was sent.' },
};

/**
 * Team administration (issue 14): direct calls through the HTTP client, like handlers/vendors.ts.
 * A failure is data (the server's `error_v2` and field messages, or offline); a 401 expires the
 * session like the sync engine's. The public invite lookup and sign-in link go through the same
 * client without a session (the token in the link is the credential).
 */
export function teamHandlers(ctx: WorkerContext): TeamApi {
  async function send<C extends CallDef>(def: C, opts: CallOptions<C>): Promise<{ ok: true; data: CallResponse<C> } | TeamFailure> {
    if (!ctx.hub.online) return TEAM_OFFLINE;
    const res = ctx.watch401(await ctx.requireHttp().call(def, opts));
    if (res.ok) return { ok: true, data: res.data };
    // A request that never reached the server is the same as offline: nothing changed there.
    if ((res.kind === 'network' || res.kind === 'timeout') && !res.maybeSent) return TEAM_OFFLINE;
    return actionFailure(res);
  }
  const asUser = (r: { ok: true; data: AdminUser } | TeamFailure) => (r.ok ? { ok: true as const, user: r.data } : r);
  const user = (id: string) => ({ user_uuid: id });
  return {
    teamUser: async (id) => asUser(await send(getUser, { params: user(id) })),
    async inviteUser(body) {
      const r = await send(inviteUser, { body });
      return r.ok ? { ok: true, user: r.data.user, expires_at: r.data.invite.expires_at } : r;
    },
    async resendInvite(id) {
      const r = await send(resendInvite, { params: user(id), body: {} });
      return r.ok ? { ok: true, user: r.data.user, expires_at: r.data.invite.expires_at } : r;
    },
    changeUserRole: async (id, role, isManager) =>
      asUser(await send(changeUserRole, { params: user(id), body: isManager === undefined ? { role } : { role, is_manager: isManager } })),
    updateUser: async (id, patch, baseSeq) =>
      asUser(await send(updateUser, { params: user(id), body: patch, ...(baseSeq !== undefined ? { ifMatch: baseSeq } : {}) })),
    suspendUser: async (id) => asUser(await send(suspendUser, { params: user(id), body: {} })),
    unsuspendUser: async (id) => asUser(await send(unsuspendUser, { params: user(id) })),
    async deleteUser(id) {
      const r = await send(deleteUser, { params: user(id) });
      return r.ok ? { ok: true } : r;
    },
    async businessEntities() {
      const r = await send(listEntities, {});
      return r.ok ? { ok: true, entities: r.data.data } : r;
    },
    async inviteDetails(token) {
      const r = await send(lookupInvite, { params: { token } });
      return r.ok ? { ok: true, invite: r.data } : r;
    },
    async sendSignInLink(email) {
      if (!ctx.hub.online) return TEAM_OFFLINE;
      const res = await ctx.requireHttp().call(passwordlessSend, { body: { email } });
      // The call answers 204 with no body: the HTTP layer reads it as the declared null.
      if (res.ok) return { ok: true };
      if ((res.kind === 'network' || res.kind === 'timeout') && !res.maybeSent) return TEAM_OFFLINE;
      return actionFailure(res);
    },
  };
}
