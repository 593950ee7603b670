import { z } from 'zod';
import { featureFlagOverridesSchema, featureFlagsResponseSchema } from '../feature-flags.ts';
import { savedViewBodySchema, savedViewListSchema, savedViewSchema } from '../saved-views.ts';
import { defineCall } from './define-call.ts';

/**
 * Issue 32: saved views (§7 "saved views (PUT and DELETE by id)") and the business's feature-flag
 * overrides (§3). Calls are declared here (defineCall) and listed in SAVED_VIEW_CALLS; the
 * catalogue (calls.ts) includes them.
 */
const scopes = { scopes: ['default'] } as const;

/** The caller's views of one list and the views others shared on it, the caller's first, by name. */
export const listSavedViews = defineCall({
  id: 'savedViews.list',
  method: 'GET',
  path: '/v1/auth/saved-views',
  auth: scopes,
  query: z.object({ list: savedViewListSchema }),
  response: z.object({ data: z.array(savedViewSchema) }),
});

/**
 * Creates the view under the client's id, or replaces it (idempotent: a retry sends the same
 * body). Only the owner replaces a view; a view of another business, or another person's
 * personal view, is not found. 201 when created, 200 when replaced.
 */
export const putSavedView = defineCall({
  id: 'savedViews.put',
  method: 'PUT',
  path: '/v1/auth/saved-views/:view_id',
  auth: scopes,
  params: z.object({ view_id: z.uuid() }),
  body: savedViewBodySchema,
  response: savedViewSchema,
});

/** The owner deletes their view; an admin may also delete a view someone shared. */
export const deleteSavedView = defineCall({
  id: 'savedViews.delete',
  method: 'DELETE',
  path: '/v1/auth/saved-views/:view_id',
  auth: scopes,
  params: z.object({ view_id: z.uuid() }),
  response: z.object({ deleted: z.literal(true), id: z.uuid() }),
});

/**
 * §3: the business's flag overrides, replaced whole by an owner or admin (a flag left out goes
 * back to its default). Answers the resolved flags, as GET /v1/auth/feature_flags does.
 */
export const putFeatureFlags = defineCall({
  id: 'featureFlags.put',
  method: 'PUT',
  path: '/v1/auth/feature_flags',
  auth: scopes,
  body: z.object({ overrides: featureFlagOverridesSchema }),
  response: featureFlagsResponseSchema,
});

export const SAVED_VIEW_CALLS = [listSavedViews, putSavedView, deleteSavedView, putFeatureFlags] as const;
