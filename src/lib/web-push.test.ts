import { describe, expect, it } from 'vitest';
import { applicationServerKey, permissionText, pushSupport, subscriptionBody, type PushEnv } from './web-push.ts';

const full: PushEnv = { secureContext: true, hasServiceWorker: true, hasPushManager: true, hasNotification: true, standalone: false, ios: false };

describe('web push helpers', () => {
  it('says why push is not available, and when it is', () => {
    expect(pushSupport(full)).toEqual({ ok: true });
    expect(pushSupport({ ...full, secureContext: false })).toMatchObject({ ok: false, reason: expect.stringContaining('https') });
    expect(pushSupport({ ...full, hasPushManager: false })).toMatchObject({ ok: false, reason: 'This browser does not support push notifications.' });
    expect(pushSupport({ ...full, ios: true, hasPushManager: false })).toMatchObject({ ok: false, reason: expect.stringContaining('Home Screen') });
    expect(pushSupport({ ...full, ios: true, standalone: true })).toEqual({ ok: true });
  });

  it('decodes the VAPID key from base64url', () => {
    const bytes = new Uint8Array(65).map((_, i) => (i * 37) % 256);
    const text = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(applicationServerKey(text)).toEqual(bytes);
  });

  it('takes a subscription with its keys, not one without', () => {
    expect(subscriptionBody({ endpoint: 'https://push.example/a', keys: { p256dh: 'P', auth: 'A' } })).toEqual({ endpoint: 'https://push.example/a', keys: { p256dh: 'P', auth: 'A' } });
    expect(subscriptionBody({ endpoint: 'https://push.example/a' })).toBeNull();
    expect(permissionText('denied')).toContain('blocked');
    expect(permissionText('default')).toBeNull();
  });
});
