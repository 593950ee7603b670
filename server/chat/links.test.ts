import { describe, expect, it } from 'vitest';
import { chatLinkKey, signChatLink, verifyChatLink } from './links.ts';

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('chat link signatures', () => {
  const key = chatLinkKey(new TextEncoder().encode('links-test-key'));
  const now = Date.UTC(2026, 10, 30);
  const token = signChatLink(key, { businessId: 'b1', path: '/approvals?open=a1', expiresAt: now + 60_000 });

  it('opens the token as signed, and refuses one whose last letter differs only in base64url padding bits', () => {
    expect(verifyChatLink(key, token, now)).toEqual({ ok: true, businessId: 'b1', path: '/approvals?open=a1' });
    const [body, sig] = token.split('.') as [string, string];
    const last = sig.at(-1)!;
    const twin = `${sig.slice(0, -1)}${B64URL[B64URL.indexOf(last) ^ 1]}`;
    // The same bytes once decoded: only the canonical spelling may pass.
    expect(Buffer.from(twin, 'base64url').equals(Buffer.from(sig, 'base64url'))).toBe(true);
    expect(verifyChatLink(key, `${body}.${twin}`, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyChatLink(key, `${body}.${sig}=`, now)).toEqual({ ok: false, reason: 'invalid' });
  });
});
