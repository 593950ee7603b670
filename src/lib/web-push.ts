/**
 * Issue 32: the browser's side of Web Push, pure where it can be. `pushSupport` says truthfully
 * whether this browser can get pushes at all (and why not); `applicationServerKey` turns the
 * server's base64url VAPID key into the bytes `pushManager.subscribe` wants; `subscriptionBody`
 * is a PushSubscription as the server's `device-token` call takes it.
 */
export type PushSupport = { ok: true } | { ok: false; reason: string };

export type PushEnv = {
  secureContext: boolean;
  hasServiceWorker: boolean;
  hasPushManager: boolean;
  hasNotification: boolean;
  /** iOS Safari offers push only to an app added to the home screen. */
  standalone: boolean;
  ios: boolean;
};

export function pushSupport(env: PushEnv): PushSupport {
  if (!env.secureContext) return { ok: false, reason: 'Notifications on this device need the app to be opened over https.' };
  if (env.ios && !env.standalone && (!env.hasPushManager || !env.hasNotification)) {
    return { ok: false, reason: 'On iPhone and iPad, add Ledgerline to your Home Screen (Share → Add to Home Screen) and open it from there to get notifications.' };
  }
  if (!env.hasServiceWorker || !env.hasPushManager || !env.hasNotification) {
    return { ok: false, reason: 'This browser does not support push notifications.' };
  }
  return { ok: true };
}

export function pushEnv(w: Window & typeof globalThis): PushEnv {
  const nav = w.navigator as Navigator & { standalone?: boolean };
  return {
    secureContext: w.isSecureContext,
    hasServiceWorker: 'serviceWorker' in nav,
    hasPushManager: 'PushManager' in w,
    hasNotification: 'Notification' in w,
    standalone: nav.standalone === true || w.matchMedia?.('(display-mode: standalone)').matches === true,
    ios: /iPad|iPhone|iPod/.test(nav.userAgent),
  };
}

export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export type SubscriptionBody = { endpoint: string; keys: { p256dh: string; auth: string } };

/** PushSubscription.toJSON() as the server's call takes it; null when the browser gave no keys. */
export function subscriptionBody(json: { endpoint?: string; keys?: Record<string, string> }): SubscriptionBody | null {
  const p256dh = json.keys?.p256dh;
  const auth = json.keys?.auth;
  if (!json.endpoint || !p256dh || !auth) return null;
  return { endpoint: json.endpoint, keys: { p256dh, auth } };
}

/** The words for the browser's permission state. */
export function permissionText(permission: NotificationPermission): string | null {
  if (permission === 'denied') return 'Notifications are blocked for Ledgerline in this browser. Allow them in the browser’s site settings, then turn this on.';
  return null;
}

/** The token of this browser's subscription, kept so a later visit can refresh or remove it. */
export const PUSH_TOKEN_KEY = 'ledgerline.push-token';
