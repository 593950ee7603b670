import {
  createDeveloperApp, createOAuthConsent, deleteDeveloperApp, getOAuthApp, listDeveloperApps, listOAuthGrants, revokeOAuthGrant,
  rotateDeveloperAppSecret, updateDeveloperApp,
} from '../../schema/api/calls-developer-apps.ts';
import { canManageApiClients } from '../../schema/roles.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import { appDoc, appDocs, createApp, deleteApp, rotateAppSecret, updateApp } from '../domain/developer-apps/apps.ts';
import { consentApp, createConsent, disconnectGrant, grantDocs } from '../domain/developer-apps/consent.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { inWriteTx } from './admin.ts';

/**
 * Issue 32: developer applications (schema/api/calls-developer-apps.ts; the token grants are
 * auth/developer-apps/). Registering, connecting (consent) and disconnecting are for admins and
 * developer admins, as API clients are: the app then acts with the rights of the one who allowed it.
 */
function managerOf(ctx: { actor: Actor | null }, what: string): Actor {
  const actor = actorOf(ctx);
  if (!canManageApiClients(actor.user)) throw new ApiError('FORBIDDEN_7003', `Only an admin or a developer admin can ${what}.`);
  return actor;
}

export const developerAppHandlers = {
  [listDeveloperApps.id]: async (ctx) => {
    const { businessId } = managerOf(ctx, 'manage developer applications');
    return ok({ data: await appDocs(ctx.db, businessId) });
  },
  [createDeveloperApp.id]: async (ctx) => {
    const { businessId, user } = managerOf(ctx, 'manage developer applications');
    const { appId, secret } = await createApp(ctx.db, businessId, user.id, ctx.input.body, ctx.deps.now());
    return ok({ app: await appDoc(ctx.db, businessId, appId), secret }, 201);
  },
  [updateDeveloperApp.id]: async (ctx) => {
    const { businessId } = managerOf(ctx, 'manage developer applications');
    const id = ctx.input.params.app_id;
    await updateApp(ctx.db, businessId, id, ctx.input.body);
    return ok({ app: await appDoc(ctx.db, businessId, id) });
  },
  [rotateDeveloperAppSecret.id]: async (ctx) => {
    const { businessId, user } = managerOf(ctx, 'manage developer applications');
    const id = ctx.input.params.app_id;
    const secret = await rotateAppSecret(ctx.db, businessId, id, user.id, ctx.deps.now());
    return ok({ app: await appDoc(ctx.db, businessId, id), secret }, 201);
  },
  [deleteDeveloperApp.id]: async (ctx) => {
    const { businessId } = managerOf(ctx, 'manage developer applications');
    const id = ctx.input.params.app_id;
    await inWriteTx(ctx, deleteDeveloperApp, (tx) => deleteApp(tx, businessId, id, ctx.deps.now()));
    return ok({ id, deleted: true as const });
  },
  [getOAuthApp.id]: async (ctx) => {
    actorOf(ctx);
    const { info, scopes } = await consentApp(ctx.db, ctx.input.params.client_id, ctx.input.query.redirect_uri);
    return ok({ app: info, scopes });
  },
  [createOAuthConsent.id]: async (ctx) => {
    const { businessId, user } = managerOf(ctx, 'connect applications');
    return ok(await createConsent(ctx.db, businessId, user.id, ctx.input.body, ctx.deps.now()), 201);
  },
  [listOAuthGrants.id]: async (ctx) => {
    const { businessId } = managerOf(ctx, 'see connected apps');
    return ok({ data: await grantDocs(ctx.db, businessId) });
  },
  [revokeOAuthGrant.id]: async (ctx) => {
    const { businessId } = managerOf(ctx, 'disconnect apps');
    const id = ctx.input.params.grant_id;
    await inWriteTx(ctx, revokeOAuthGrant, (tx) => disconnectGrant(tx, businessId, id, ctx.deps.now()));
    return ok({ id, revoked: true as const });
  },
} satisfies DomainHandlers;
