import {
  createApiClient, createApiClientSecret, deleteApiClient, deleteApiClientSecret, getApiClient, listApiClients,
} from '../../schema/api/calls-api-clients.ts';
import { canManageApiClients } from '../../schema/roles.ts';
import { addSecret, clientDoc, clientDocs, clientUsage, createClient, deleteClient, revokeSecret } from '../auth/api-clients/store.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { inWriteTx } from './admin.ts';

/**
 * Issue 32: customer API clients (schema/api/calls-api-clients.ts; the token endpoint and the
 * per-request checks are auth/api-clients/). Admins and developer admins manage them; creating a
 * secret (a new client comes with one) and deleting need the `sensitive` scope (step-up).
 */
function managerOf(ctx: { actor: Actor | null }): Actor {
  const actor = actorOf(ctx);
  if (!canManageApiClients(actor.user)) throw new ApiError('FORBIDDEN_7003', 'Only an admin or a developer admin can manage API clients.');
  return actor;
}

export const apiClientHandlers = {
  [listApiClients.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    return ok({ data: await clientDocs(ctx.db, businessId) });
  },
  [createApiClient.id]: async (ctx) => {
    const { businessId, user } = managerOf(ctx);
    const { clientId, secret } = await createClient(ctx.db, businessId, user.id, ctx.input.body, ctx.deps.now());
    return ok({ client: await clientDoc(ctx.db, businessId, clientId), secret }, 201);
  },
  [getApiClient.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    const client = await clientDoc(ctx.db, businessId, ctx.input.params.client_id);
    return ok({ client, ...(await clientUsage(ctx.db, client.id, ctx.deps.now())) });
  },
  [createApiClientSecret.id]: async (ctx) => {
    const { businessId, user } = managerOf(ctx);
    const clientId = ctx.input.params.client_id;
    const secret = await addSecret(ctx.db, businessId, clientId, user.id, ctx.input.body.revoke_existing, ctx.deps.now());
    return ok({ client: await clientDoc(ctx.db, businessId, clientId), secret }, 201);
  },
  [deleteApiClientSecret.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    const client = await inWriteTx(ctx, deleteApiClientSecret, async (tx) => {
      const clientId = await revokeSecret(tx, businessId, ctx.input.params.secret_id, ctx.deps.now());
      return clientDoc(tx, businessId, clientId);
    });
    return ok({ client });
  },
  [deleteApiClient.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    const id = ctx.input.params.client_id;
    await inWriteTx(ctx, deleteApiClient, (tx) => deleteClient(tx, businessId, id, ctx.deps.now()));
    return ok({ id, deleted: true as const });
  },
} satisfies DomainHandlers;
