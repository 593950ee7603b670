import {
  deleteChatConnection, listChatConnections, openChatLink, putChatConnection, testChatConnection,
} from '../../schema/api/calls-chat.ts';
import { canManageIntegrations } from '../../schema/roles.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { chatLinkKey, verifyChatLink } from '../chat/links.ts';
import { sendTestPost } from '../chat/delivery.ts';
import {
  checkWebhookUrl, connectionDto, deleteConnection, listConnections, loadConnection, requireConnection, saveConnection, type ChatNet,
} from '../chat/store.ts';

/** Admins and IT admins (D1, `canManageIntegrations`); anyone else is refused with FORBIDDEN_7003. */
function managerOf(ctx: { actor: Actor | null }): Actor {
  const actor = actorOf(ctx);
  if (!canManageIntegrations(actor.user)) throw new ApiError('FORBIDDEN_7003', 'Only administrators and IT admins can manage Slack and Teams.');
  return actor;
}

const netOf = (ctx: { deps: { sso: ChatNet } }): ChatNet => ({ allowLoopbackHttp: ctx.deps.sso.allowLoopbackHttp, dnsServer: ctx.deps.sso.dnsServer });

/** Issue 32: Slack and Teams incoming webhooks (schema/api/calls-chat.ts, server/chat/). */
export const chatHandlers = {
  [listChatConnections.id]: async (ctx) => ok({ data: (await listConnections(ctx.db, managerOf(ctx).businessId)).map(connectionDto) }),
  [putChatConnection.id]: async (ctx) => {
    const { businessId, user } = managerOf(ctx);
    const { provider } = ctx.input.params;
    // Checked (DNS included) before the transaction: nothing is held while a name resolves.
    const url = await checkWebhookUrl(provider, ctx.input.body.webhook_url, netOf(ctx));
    const row = await ctx.deps.db.transaction((tx) => saveConnection(tx, businessId, user.id, provider, ctx.input.body, url));
    return ok(connectionDto(row));
  },
  [deleteChatConnection.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    await ctx.deps.db.transaction((tx) => deleteConnection(tx, businessId, ctx.input.params.provider));
    return ok({ disconnected: true });
  },
  [testChatConnection.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    const { provider } = ctx.input.params;
    const conn = await requireConnection(ctx.db, businessId, provider);
    const outcome = await sendTestPost(ctx.db, businessId, provider, conn.webhook_url, netOf(ctx), new Date(ctx.deps.now()));
    const row = await loadConnection(ctx.db, businessId, provider);
    return ok({
      delivered: outcome.ok, status: outcome.status,
      message: outcome.ok ? 'Posted: look for “Ledgerline is connected to this channel” in the channel.' : outcome.error,
      connection: connectionDto(row!),
    });
  },
  [openChatLink.id]: async (ctx) => {
    const { businessId } = actorOf(ctx);
    const check = verifyChatLink(chatLinkKey(await ctx.deps.tokenKey()), ctx.input.body.token, ctx.deps.now());
    if (!check.ok && check.reason === 'expired') {
      throw new ApiError('REQUEST_7001', 'This link has expired: links in Slack and Teams posts work for 14 days. Open Approvals to find the item.');
    }
    // A link of another business (or none of ours) names nothing here.
    if (!check.ok || check.businessId !== businessId) throw new ApiError('REQUEST_7004', 'This link does not open anything in this business.');
    return ok({ path: check.path });
  },
} satisfies DomainHandlers;
