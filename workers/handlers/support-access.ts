import {
  getEmailVerification, getSupportAccess, grantSupportAccess, revokeSupportAccess, sendEmailVerification, verifyEmail,
} from '../../schema/api/calls-support-access.ts';
import type { CallDef, CallResponse } from '../../schema/api/define-call.ts';
import type { CallOptions } from '../../sync/index.ts';
import type { SupportAccessApi, SupportAccessFailure } from '../api.ts';
import { actionFailure } from '../identity.ts';
import type { WorkerContext } from '../worker-context.ts';

/** Refused before any request: support access and email verification are decided on the server (nothing mirrored or queued). */
export const SUPPORT_ACCESS_OFFLINE: SupportAccessFailure = {
  ok: false,
  offline: true,
  error: { error_code: 'OFFLINE', message: 'You’re offline. This needs a connection: nothing was sent.' },
};

/**
 * Support access grants and email verification (issue 24; schema/api/calls-support-access.ts):
 * direct calls through the session's HTTP client, like handlers/team.ts. Online only; a failure
 * is data (the server's error_v2, or offline); a 401 expires the session.
 */
export function supportAccessHandlers(ctx: WorkerContext): SupportAccessApi {
  async function send<C extends CallDef>(def: C, opts: CallOptions<C>): Promise<{ ok: true; data: CallResponse<C> } | SupportAccessFailure> {
    if (!ctx.hub.online) return SUPPORT_ACCESS_OFFLINE;
    const res = ctx.watch401(await ctx.requireHttp().call(def, opts));
    if (res.ok) return { ok: true, data: res.data };
    // Never reached the server: nothing changed there, as offline.
    if ((res.kind === 'network' || res.kind === 'timeout') && !res.maybeSent) return SUPPORT_ACCESS_OFFLINE;
    return actionFailure(res);
  }
  const state = (r: { ok: true; data: CallResponse<typeof getSupportAccess> } | SupportAccessFailure) =>
    (r.ok ? { ok: true as const, grant: r.data.grant } : r);
  const verification = (r: { ok: true; data: CallResponse<typeof getEmailVerification> } | SupportAccessFailure) =>
    (r.ok ? { ok: true as const, verification: r.data } : r);
  return {
    supportAccess: async () => state(await send(getSupportAccess, {})),
    grantSupportAccess: async (body) => state(await send(grantSupportAccess, { body })),
    revokeSupportAccess: async () => state(await send(revokeSupportAccess, {})),
    emailVerification: async () => verification(await send(getEmailVerification, {})),
    async sendEmailVerification() {
      const r = await send(sendEmailVerification, { body: {} });
      return r.ok ? { ok: true, expires_at: r.data.expires_at } : r;
    },
    verifyEmail: async (code) => verification(await send(verifyEmail, { body: { code } })),
  };
}
