import { featureFlags as featureFlagsCall } from '../../schema/api/calls-identity.ts';
import { deleteSavedView, listSavedViews, putFeatureFlags, putSavedView } from '../../schema/api/calls-saved-views.ts';
import { resolveFeatureFlags, type FeatureFlagOverrides, type FeatureFlags } from '../../schema/feature-flags.ts';
import { savedViewSchema, type SavedView, type SavedViewBody, type SavedViewList } from '../../schema/saved-views.ts';
import type { MirrorDatabase } from '../db.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const SAVED_VIEW_OFFLINE = offlineFailure('You’re offline. Saving or changing a view needs a connection: nothing was sent.');

/** What the views cache needs: the open mirror's `meta` (the views are not a mirrored collection). */
/** What this domain reads of the mirror: its meta store (not the runtime's type, which would close an import loop through api.ts). */
type MetaRuntime = { readonly db: Pick<MirrorDatabase, 'meta'> };
export type SavedViewPort = OnlinePort & { readonly host: { readonly runtime: MetaRuntime | null } };

/** The views read last time, per list, kept in the mirror's `meta` so the menu works offline. */
const cacheId = (list: SavedViewList) => `saved_views:${list}`;
/** The business's flags as the mirror caches them (workers/identity.ts reads the same document). */
const FLAGS_META_ID = 'feature_flags';

export type SavedViewsResult = { ok: true; views: SavedView[]; fromCache: boolean } | OnlineFailure;

async function readCache(runtime: MetaRuntime | null, list: SavedViewList): Promise<SavedView[] | null> {
  const doc = runtime ? await runtime.db.meta.findOne(cacheId(list)).exec() : null;
  const parsed = savedViewSchema.array().safeParse(doc?.value);
  return parsed.success ? parsed.data : null;
}

/**
 * Issue 32: saved views and the business's feature flags (schema/api/calls-saved-views.ts).
 * Reading a list's views falls back to the copy kept on the device when the server cannot be
 * reached, so applying a view works offline (the lists are mirrored); every write is online only.
 */
export const SAVED_VIEW_DOMAIN = (port: SavedViewPort) => onlineDomain(SAVED_VIEW_OFFLINE, {
  savedViews: custom((send) => async (list: SavedViewList): Promise<SavedViewsResult> => {
    const r = await send(listSavedViews, { query: { list } });
    const runtime = port.host.runtime;
    if (r.ok) {
      await runtime?.db.meta.upsert({ id: cacheId(list), value: r.data.data });
      return { ok: true, views: r.data.data, fromCache: false };
    }
    if (!r.offline) return r;
    const cached = await readCache(runtime, list);
    return cached ? { ok: true, views: cached, fromCache: true } : r;
  }),
  saveView: via(putSavedView, (id: string, body: SavedViewBody) => ({ params: { view_id: id }, body }), (view: SavedView) => ({ view })),
  deleteView: via(deleteSavedView, (id: string) => ({ params: { view_id: id } })),
  businessFlags: via(featureFlagsCall, () => ({}), (r) => ({ flags: resolveFeatureFlags(r.flags) })),
  saveFeatureFlags: custom((send) => async (overrides: FeatureFlagOverrides): Promise<{ ok: true; flags: FeatureFlags } | OnlineFailure> => {
    const r = await send(putFeatureFlags, { body: { overrides } });
    if (!r.ok) return r;
    const flags = resolveFeatureFlags(r.data.flags);
    // The app reads flags from this cache (cachedFlags): the change applies here at once.
    await port.host.runtime?.db.meta.upsert({ id: FLAGS_META_ID, value: flags });
    return { ok: true, flags };
  }),
});

export type SavedViewApi = OnlineApi<ReturnType<typeof SAVED_VIEW_DOMAIN>>;

export const savedViewWorkerHandlers = (port: SavedViewPort): SavedViewApi => bindDomain(port, SAVED_VIEW_DOMAIN(port));
