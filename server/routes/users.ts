import {
  deleteProfilePicture, getProfilePicture, getUserPreferences, getUserSettings, patchUserSettings, putProfilePicture, putUserPreferences,
} from '../../schema/api/calls-users.ts';
import { deleteDeviceToken, getPushKey, registerDeviceToken } from '../../schema/api/calls-push.ts';
import { ApiError } from '../core/errors.ts';
import {
  patchSettings, readPicture, readPreferences, readSettings, removePicture, replacePreferences, storePicture,
} from '../domain/user-profile.ts';
import { fileHeaders } from '../http/file-headers.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { deleteSubscription, registerSubscription } from '../push/subscriptions.ts';
import { loadVapidKeys } from '../push/vapid.ts';

const EXT = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' } as Record<string, string>;

/** Issue 32: the person's own settings, preferences, picture (schema/api/calls-users.ts) and push subscriptions (calls-push.ts). */
export const userHandlers = {
  [getUserSettings.id]: async (ctx) => {
    const { businessId, user } = actorOf(ctx);
    return ok(await readSettings(ctx.db, businessId, user.id));
  },
  [patchUserSettings.id]: async (ctx) => {
    const { businessId, user } = actorOf(ctx);
    return ok(await patchSettings(ctx.db, businessId, user.id, ctx.input.body, new Date(ctx.deps.now())));
  },
  [getUserPreferences.id]: async (ctx) => ok(await readPreferences(ctx.db, actorOf(ctx).user.id)),
  [putUserPreferences.id]: async (ctx) => {
    const { businessId, user } = actorOf(ctx);
    return ok(await ctx.deps.db.transaction((tx) => replacePreferences(tx, businessId, user.id, ctx.input.body, new Date(ctx.deps.now()))));
  },
  [putProfilePicture.id]: async (ctx) => {
    const { businessId, user } = actorOf(ctx);
    const contentType = (ctx.c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return ok(await ctx.deps.db.transaction((tx) => storePicture(tx, businessId, user.id, contentType, ctx.input.body, new Date(ctx.deps.now()))));
  },
  [deleteProfilePicture.id]: async (ctx) => {
    const { businessId, user } = actorOf(ctx);
    return ok(await removePicture(ctx.db, businessId, user.id, new Date(ctx.deps.now())));
  },
  [getProfilePicture.id]: async (ctx) => {
    const { businessId } = actorOf(ctx);
    const file = await readPicture(ctx.db, businessId, ctx.input.params.user_uuid);
    if (!file) throw new ApiError('REQUEST_7004');
    const headers = {
      ...fileHeaders(file.content_type, `profile-${ctx.input.params.user_uuid}.${EXT[file.content_type] ?? 'img'}`),
      // Asked for by its hash (`v`), the bytes are fixed for good; without it, checked each time.
      'cache-control': ctx.input.query.v === file.sha256 ? 'private, max-age=31536000, immutable' : 'private, no-cache',
      etag: `"${file.sha256}"`,
    };
    if (ctx.c.req.header('if-none-match')?.includes(`"${file.sha256}"`)) return ctx.c.body(null, 304, headers);
    return ctx.c.body(new Uint8Array(file.bytes), 200, { ...headers, 'content-length': String(file.bytes.length) });
  },

  [getPushKey.id]: async (ctx) => ok({ public_key: (await loadVapidKeys(ctx.db)).publicKey }),
  [registerDeviceToken.id]: async (ctx) => {
    const { businessId, user } = actorOf(ctx);
    const { subscription, previous_token } = ctx.input.body;
    return ok(await ctx.deps.db.transaction((tx) => registerSubscription(tx, { businessId, userId: user.id }, subscription, {
      previousToken: previous_token, userAgent: ctx.c.req.header('user-agent') ?? '',
      allowLoopbackHttp: ctx.deps.sso.allowLoopbackHttp, now: new Date(ctx.deps.now()),
    })));
  },
  [deleteDeviceToken.id]: async (ctx) => {
    const { businessId, user } = actorOf(ctx);
    await ctx.deps.db.transaction((tx) => deleteSubscription(tx, { businessId, userId: user.id }, ctx.input.params.token));
    return ok({ deleted: true as const });
  },
} satisfies DomainHandlers;
