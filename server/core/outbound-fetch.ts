import { promises as dns } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addressAllowed, addressVerdict } from './outbound-address.ts';

/**
 * The one way the server fetches a URL someone else chose (SAML metadata, OIDC discovery, token
 * and JWKS requests through openid-client's customFetch, any future webhook). It cannot be pointed
 * inside:
 * - https only; http and loopback addresses only with the explicit opt-in
 *   (SSO_ALLOW_LOOPBACK_HTTP=1: tests and development), and then http only to loopback;
 * - the host is resolved (through LEDGERLINE_DNS_SERVER when set, else the system's resolver),
 *   every address it has must be public (server/core/outbound-address.ts), and the connection is
 *   made to the checked address itself (a pinned `lookup`), so a name that resolves elsewhere a
 *   moment later (DNS rebinding) changes nothing;
 * - redirects are followed by hand (at most 3), each hop checked the same way;
 * - 5 s for the whole exchange, body included, and at most 1 MB of body.
 * Every refusal (an address refused, nothing listening, a timeout, a TLS failure, a malformed
 * URL, too many redirects, too big an answer) throws the same OutboundRefused with the same
 * words: the answer tells nothing about what is listening where.
 */

export const OUTBOUND_REFUSED_MESSAGE = 'could not be fetched: it must be a public https address that answers within 5 seconds with at most 1 MB.';
const OUTBOUND_TIMEOUT_MS = 5000;
const OUTBOUND_MAX_BYTES = 1024 * 1024;
const OUTBOUND_MAX_REDIRECTS = 3;

export class OutboundRefused extends Error {
  constructor(readonly url: string) {
    super(`${url} ${OUTBOUND_REFUSED_MESSAGE}`);
    this.name = 'OutboundRefused';
  }
}

export type OutboundOptions = {
  /** SSO_ALLOW_LOOPBACK_HTTP: loopback addresses, and http to them, are allowed. */
  allowLoopbackHttp: boolean;
  /** LEDGERLINE_DNS_SERVER (host:port): the resolver asked for names; null → the system's. */
  dnsServer: string | null;
  timeoutMs?: number;
  maxBytes?: number;
};

export type OutboundInit = {
  method?: string;
  headers?: Record<string, string> | Headers;
  body?: string | Uint8Array | URLSearchParams | null;
  /** 'manual' answers a redirect as it is (openid-client asks so); else redirects are followed (checked). */
  redirect?: 'follow' | 'manual' | 'error';
  signal?: AbortSignal | null;
};

/** A resolver asking `server` (host:port), or null for the system's (getaddrinfo: /etc/hosts too). */
export function dnsResolver(server: string | null): dns.Resolver | null {
  if (!server) return null;
  const resolver = new dns.Resolver({ timeout: 2000, tries: 2 });
  resolver.setServers([server]);
  return resolver;
}

/** Every address of a host name (an IP literal is its own); [] when it has none. Also the SFTP uploads' resolver. */
export async function resolveHost(hostname: string, dnsServer: string | null): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return [host];
  const name = host.toLowerCase().replace(/\.$/, '');
  // RFC 6761: localhost is loopback, whatever a resolver says.
  if (name === 'localhost' || name.endsWith('.localhost')) return ['127.0.0.1'];
  const resolver = dnsResolver(dnsServer);
  if (resolver) {
    const settled = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
    return settled.flatMap((s) => (s.status === 'fulfilled' ? s.value : []));
  }
  try {
    return (await dns.lookup(name, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return [];
  }
}

/** The address a URL may be fetched from, checked; null when it may not be. */
async function checkedAddress(url: URL, opts: OutboundOptions): Promise<string | null> {
  if (url.username || url.password) return null;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.protocol === 'http:' && !opts.allowLoopbackHttp) return null;
  const addresses = await resolveHost(url.hostname, opts.dnsServer);
  // Every address must pass: a name with one public and one inside address is refused.
  if (addresses.length === 0 || !addresses.every((a) => addressAllowed(a, opts.allowLoopbackHttp))) return null;
  // Plain http only to loopback (with the opt-in), never to a public address.
  if (url.protocol === 'http:' && !addresses.every((a) => addressVerdict(a) === 'loopback')) return null;
  return addresses[0]!;
}

/**
 * Whether `url` may be fetched under the rules above, its host resolved and checked now: the check
 * a URL someone saves for later (a chat webhook) passes before it is stored. Fetching it later
 * checks again (the name may resolve elsewhere by then).
 */
export async function outboundUrlAllowed(url: string, opts: OutboundOptions): Promise<boolean> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), opts.timeoutMs ?? OUTBOUND_TIMEOUT_MS).unref());
  return (await Promise.race([checkedAddress(parsed, opts).catch(() => null), timeout])) !== null;
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function headerRecord(h: OutboundInit['headers']): Record<string, string> {
  if (!h) return {};
  if (h instanceof Headers) return Object.fromEntries(h.entries());
  return { ...h };
}

function bodyBytes(body: OutboundInit['body']): Buffer | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof URLSearchParams) return Buffer.from(body.toString(), 'utf8');
  return Buffer.from(body);
}

/** One request to the checked address, its body read within the caps; rejects on any failure. */
function requestOnce(url: URL, address: string, init: OutboundInit, signal: AbortSignal, maxBytes: number): Promise<Response> {
  const family = isIP(address);
  const pinned: LookupFunction = (_host, options, callback) => {
    // Node asks with all: true when it may try several families (autoSelectFamily).
    if ((options as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const body = bodyBytes(init.body);
  const headers = headerRecord(init.headers);
  if (body && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-length')) headers['content-length'] = String(body.length);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<Response>((resolve, reject) => {
    const req = transport.request(
      {
        protocol: url.protocol, hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port || undefined,
        path: `${url.pathname}${url.search}`, method: init.method ?? 'GET', headers, lookup: pinned, agent: false, signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy(new Error('too big'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', reject);
        res.on('end', () => {
          const status = res.statusCode ?? 502;
          const responseHeaders = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (v === undefined) continue;
            for (const one of Array.isArray(v) ? v : [v]) responseHeaders.append(k, one);
          }
          try {
            resolve(new Response(NULL_BODY_STATUSES.has(status) ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
          } catch (err) {
            reject(err);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches `url` under the rules above and answers a Response whose body is already read (at most
 * 1 MB). Throws OutboundRefused for every refusal and failure alike.
 */
export async function outboundFetch(url: string | URL, init: OutboundInit, opts: OutboundOptions): Promise<Response> {
  const shown = String(url);
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? OUTBOUND_TIMEOUT_MS);
  const signal = init.signal ? AbortSignal.any([timeout, init.signal]) : timeout;
  let current: URL;
  try {
    current = new URL(String(url));
  } catch {
    throw new OutboundRefused(shown);
  }
  let method = init.method ?? 'GET';
  let body = init.body;
  try {
    for (let hop = 0; hop <= OUTBOUND_MAX_REDIRECTS; hop++) {
      if (signal.aborted) throw new OutboundRefused(shown);
      const address = await Promise.race([
        checkedAddress(current, opts),
        new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('timeout')), { once: true })),
      ]);
      if (!address) throw new OutboundRefused(shown);
      const res = await requestOnce(current, address, { ...init, method, body }, signal, opts.maxBytes ?? OUTBOUND_MAX_BYTES);
      const location = res.headers.get('location');
      if (!REDIRECTS.has(res.status) || !location || init.redirect === 'manual') return res;
      if (init.redirect === 'error') throw new OutboundRefused(shown);
      current = new URL(location, current);
      // As browsers do: 303 (and 301/302 after a POST) go on as a GET without a body.
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        body = null;
      }
    }
  } catch {
    throw new OutboundRefused(shown);
  }
  throw new OutboundRefused(shown);
}
