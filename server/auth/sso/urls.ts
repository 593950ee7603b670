import { isIP } from 'node:net';

/** 127.0.0.0/8, ::1 and localhost (with or without the brackets URL puts around IPv6). */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * An identity-provider URL we may fetch or send people to: absolute https, or http on a loopback
 * host when `allowLoopbackHttp` (tests, development). Null when it is not.
 */
export function idpUrl(text: string, allowLoopbackHttp: boolean): URL | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && allowLoopbackHttp && isLoopbackHost(url.hostname)) return url;
  return null;
}

/**
 * Where the app goes after a sign-in: a path on our own origin ("/transactions?x=1"), never
 * another site ("//evil.example", "https://…", "/\\evil"); anything else is dropped (null).
 */
export function safeRedirect(path: string | undefined | null): string | null {
  if (!path || !path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return null;
  try {
    const url = new URL(path, 'https://app.invalid');
    return url.origin === 'https://app.invalid' ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}
