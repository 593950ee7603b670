import { deleteSavedView, listSavedViews, putFeatureFlags, putSavedView } from '../../schema/api/calls-saved-views.ts';
import { isAdmin } from '../../schema/roles.ts';
import { featureFlagsOf, setFeatureFlagOverrides } from '../auth/settings.ts';
import { ApiError } from '../core/errors.ts';
import * as views from '../domain/saved-views.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { inWriteTx } from './admin.ts';

/** Issue 32: saved views and the business's feature-flag overrides (schema/api/calls-saved-views.ts). */
export const savedViewHandlers = {
  [listSavedViews.id]: async (ctx) => ok({ data: await views.listSavedViews(ctx.db, actorOf(ctx).user, ctx.input.query.list) }),

  [putSavedView.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const { view, created } = await views.putSavedView(ctx.db, user, ctx.input.params.view_id, ctx.input.body);
    return ok(view, created ? 201 : 200);
  },

  [deleteSavedView.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await inWriteTx(ctx, deleteSavedView, (tx) => views.deleteSavedView(tx, user, ctx.input.params.view_id)));
  },

  [putFeatureFlags.id]: async (ctx) => {
    const { user, businessId } = actorOf(ctx);
    if (!isAdmin(user)) throw new ApiError('FORBIDDEN_7003', 'Only owners and admins can change feature flags.');
    await setFeatureFlagOverrides(ctx.db, businessId, ctx.input.body.overrides);
    return ok({ flags: await featureFlagsOf(ctx.db, businessId) });
  },
} satisfies DomainHandlers;
