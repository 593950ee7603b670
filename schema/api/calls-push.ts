import { z } from 'zod';
import { callGroup } from './call-group.ts';

/**
 * Issue 32 (§7 "device token refresh", "DELETE notifications/device-token/{token}"): the PWA's
 * device tokens are Web Push subscriptions (RFC 8030 endpoint + RFC 8291 keys). Registering the
 * same endpoint again refreshes it (a browser re-subscribes after its subscription changed:
 * `previous_token` names the one it replaces). Each new in-app notification is pushed to every
 * subscription of its owner, encrypted (aes128gcm) and signed with the server's VAPID key.
 * The token is the subscription's id (hex SHA-256 of its endpoint); another person's is 404.
 */
const scopes = { scopes: ['default'] } as const;
const group = callGroup('/v1/auth/notifications', scopes);

const base64url = (min: number, max: number) => z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/).min(min).max(max);

export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2048),
  keys: z.object({
    /** The browser's P-256 public key, uncompressed (65 bytes → 87 base64url characters). */
    p256dh: base64url(86, 90),
    /** The 16-byte auth secret (22 characters). */
    auth: base64url(22, 24),
  }),
});

export const deviceTokenSchema = z.object({
  token: z.string().regex(/^[0-9a-f]{64}$/),
  created_at: z.string(),
  refreshed_at: z.string(),
  /** The push service's last refusal, in words; null when the last push went through. */
  last_error: z.string().nullable(),
});
export type DeviceToken = z.infer<typeof deviceTokenSchema>;

/** The server's VAPID public key (base64url), the `applicationServerKey` a browser subscribes with. */
export const getPushKey = group('notifications.push.key', 'GET', '/push-key', {
  response: z.object({ public_key: z.string() }),
});

export const registerDeviceToken = group('notifications.deviceToken.register', 'PUT', '/device-token', {
  body: z.object({ subscription: pushSubscriptionSchema, previous_token: z.string().regex(/^[0-9a-f]{64}$/).optional() }),
  response: deviceTokenSchema,
});

export const deleteDeviceToken = group('notifications.deviceToken.delete', 'DELETE', '/device-token/:token', {
  params: z.object({ token: z.string().regex(/^[0-9a-f]{64}$/) }),
  response: z.object({ deleted: z.literal(true) }),
});

export const PUSH_CALLS = [getPushKey, registerDeviceToken, deleteDeviceToken] as const;
