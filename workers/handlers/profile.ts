import type { z } from 'zod';
import {
  deleteProfilePicture, getProfilePicture, getUserPreferences, getUserSettings, patchUserSettings, putProfilePicture, putUserPreferences,
  PROFILE_PICTURE_MAX_BYTES, PROFILE_PICTURE_TYPES, type UserPreferences, type UserSettings, type userSettingsPatchSchema,
} from '../../schema/api/calls-users.ts';
import { deleteDeviceToken, getPushKey, registerDeviceToken, type DeviceToken, type pushSubscriptionSchema } from '../../schema/api/calls-push.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { answerOf, bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: a person's settings, picture and push subscriptions live on the server. */
export const PROFILE_OFFLINE = offlineFailure('You’re offline. Your profile is kept on the server and needs a connection: nothing was sent.');

export type UserSettingsPatch = z.input<typeof userSettingsPatchSchema>;
export type PushSubscriptionJson = z.input<typeof pushSubscriptionSchema>;
export type { DeviceToken, UserPreferences, UserSettings };

/**
 * Issue 32 (schema/api/calls-users.ts, calls-push.ts): the person's settings, preferences and
 * picture, and this browser's Web Push subscription. Direct calls, online only. A picture is
 * checked for type and size before it is sent (the server reads its header again).
 */
export const PROFILE_DOMAIN = onlineDomain(PROFILE_OFFLINE, {
  userSettings: via(getUserSettings, () => ({}), (settings: UserSettings) => ({ settings })),
  saveUserSettings: via(patchUserSettings, (body: UserSettingsPatch) => ({ body }), (settings: UserSettings) => ({ settings })),
  userPreferences: via(getUserPreferences, () => ({}), (preferences: UserPreferences) => ({ preferences })),
  saveUserPreferences: via(putUserPreferences, (body: UserPreferences) => ({ body }), (preferences: UserPreferences) => ({ preferences })),
  uploadProfilePicture: custom((send, port, offline) => async (file: Blob): Promise<{ ok: true; settings: UserSettings } | OnlineFailure> => {
    if (!port.hub.online) return offline;
    if (!(PROFILE_PICTURE_TYPES as readonly string[]).includes(file.type)) return { ok: false, error: { error_code: 'UPLOAD_7101', message: 'Choose a PNG, JPEG or WebP image.' } };
    if (file.size > PROFILE_PICTURE_MAX_BYTES) return { ok: false, error: { error_code: 'UPLOAD_7103', message: 'That image is larger than 2 MB: choose a smaller one.' } };
    const r = await send(putProfilePicture, { file: { body: file, contentType: file.type } });
    return r.ok ? { ok: true, settings: r.data as UserSettings } : r;
  }),
  removeProfilePicture: via(deleteProfilePicture, () => ({}), (settings: UserSettings) => ({ settings })),
  /** Someone's picture (the URL's hash as `v`, so the browser may keep it), as a Blob. */
  profilePicture: custom((_send, port, offline) => async (user_uuid: string, v: string): Promise<{ ok: true; file: Blob } | OnlineFailure> => {
    if (!port.hub.online) return offline;
    const r = answerOf(port, await port.requireHttp().blob(getProfilePicture, { params: { user_uuid }, query: { v } }), offline);
    return r.ok ? { ok: true, file: r.data } : r;
  }),
  pushKey: via(getPushKey, () => ({}), (d) => ({ publicKey: d.public_key })),
  registerPush: via(registerDeviceToken, (subscription: PushSubscriptionJson, previous_token?: string) => ({
    body: { subscription, ...(previous_token ? { previous_token } : {}) },
  }), (device: DeviceToken) => ({ device })),
  unregisterPush: via(deleteDeviceToken, (token: string) => ({ params: { token } }), () => ({})),
});

export type ProfileApi = OnlineApi<typeof PROFILE_DOMAIN>;

export const profileWorkerHandlers = (port: OnlinePort): ProfileApi => bindDomain(port, PROFILE_DOMAIN);
