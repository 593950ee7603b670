import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed links from chat posts back into the app (issue 32). A post in a channel carries
 * `<origin>/chat-link?t=<token>`; the app page opens it only for a signed-in person (the token is
 * no sign-in: `chat.links.open` is an authenticated call), and only in the business it names.
 * The token proves two things and nothing else: that this server made it, and which app path
 * (the item) and business it names; it expires CHAT_LINK_TTL_MS after the post was made.
 *
 * token = base64url(JSON {b, p, e}) "." base64url(HMAC-SHA256(chat key, that first part)); the chat
 * key is derived from the id-token key (auth/tokens.ts) so a token of one kind never verifies as
 * the other.
 */
export const CHAT_LINK_TTL_MS = 14 * 24 * 60 * 60 * 1000;
/** The app page that opens a chat link (src/features/integrations/chat-link-page.tsx). */
export const CHAT_LINK_PATH = '/chat-link';

type LinkClaims = { b: string; p: string; e: number };

export type ChatLinkCheck =
  | { ok: true; businessId: string; path: string }
  | { ok: false; reason: 'invalid' | 'expired' };

export function chatLinkKey(tokenKey: Uint8Array): Buffer {
  return createHmac('sha256', tokenKey).update('ledgerline chat link v1').digest();
}

const mac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();

export function signChatLink(key: Buffer, claims: { businessId: string; path: string; expiresAt: number }): string {
  const body = Buffer.from(JSON.stringify({ b: claims.businessId, p: claims.path, e: claims.expiresAt } satisfies LinkClaims)).toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

/** A link's token checked: the signature first (nothing of an unsigned token is read), then its expiry. */
export function verifyChatLink(key: Buffer, token: string, now: number): ChatLinkCheck {
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined) return { ok: false, reason: 'invalid' };
  const given = Buffer.from(sig, 'base64url');
  const want = mac(key, body);
  // Only the canonical spelling: base64url's last character carries padding bits a decoder drops, so another letter there must not pass.
  if (given.length !== want.length || given.toString('base64url') !== sig || !timingSafeEqual(given, want)) return { ok: false, reason: 'invalid' };
  let claims: Partial<LinkClaims>;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<LinkClaims>;
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (typeof claims.b !== 'string' || typeof claims.p !== 'string' || typeof claims.e !== 'number' || !claims.p.startsWith('/') || claims.p.startsWith('//')) {
    return { ok: false, reason: 'invalid' };
  }
  if (claims.e <= now) return { ok: false, reason: 'expired' };
  return { ok: true, businessId: claims.b, path: claims.p };
}

/** The absolute link a post carries: `base` is the origin's /chat-link (relative bases take `origin`). */
export function chatLinkUrl(base: string, origin: string, token: string): string {
  const url = new URL(base, origin);
  url.searchParams.set('t', token);
  return url.toString();
}
