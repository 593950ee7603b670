import { canManageIntegrations } from '../../schema/roles.ts';
import { deleteScimIntegration, listScimIntegrations, putScimIntegration } from '../../schema/api/calls-scim.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { createIntegration, listIntegrations, renameIntegration, revokeIntegration } from '../scim/integrations.ts';

/** Admins and IT admins (D1), checked before any lookup. */
function integrationManagerOf(ctx: { actor: Actor | null }): Actor {
  const actor = actorOf(ctx);
  if (!canManageIntegrations(actor.user)) throw new ApiError('FORBIDDEN_7003', 'Only admins and IT admins manage SCIM integrations.');
  return actor;
}

/** Issue 32: SCIM integrations (bearer tokens per integration) for /scim/v2 (schema/api/calls-scim.ts). */
export const scimIntegrationHandlers = {
  [listScimIntegrations.id]: async (ctx) => {
    const { businessId } = integrationManagerOf(ctx);
    return ok({ integrations: await listIntegrations(ctx.db, businessId) });
  },
  // PUT runs outside a transaction (register): each branch is a single statement or reads after it.
  [putScimIntegration.id]: async (ctx) => {
    const actor = integrationManagerOf(ctx);
    const { id, name } = ctx.input.body;
    if (id) return ok({ integration: await renameIntegration(ctx.db, actor.businessId, id, name), token: null });
    return ok(await createIntegration(ctx.db, actor.businessId, actor.user.id, name), 201);
  },
  [deleteScimIntegration.id]: async (ctx) => {
    const { businessId } = integrationManagerOf(ctx);
    await revokeIntegration(ctx.db, businessId, ctx.input.params.id);
    return ok({ id: ctx.input.params.id, revoked: true });
  },
} satisfies DomainHandlers;
