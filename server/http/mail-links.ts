import type { Context } from 'hono';
import type { SendMail } from '../domain/bill-approvals.ts';
import type { AppDeps } from '../core/deps.ts';
import { foldEmail } from '../auth/email-address.ts';
import { enqueueMail, type MailRequest } from '../mail/outbox.ts';
import type { MailTemplateName, MailTemplateValues } from '../mail/templates.ts';
import type { Queryable } from '../db/db.ts';

/** The environment the fallback reads: where main.ts listens, and the extra origins already trusted for passkeys. */
export type MailLinkEnv = { HOST?: string; PORT?: string; LEDGERLINE_PASSKEY_ORIGINS?: string };

/** The request as far as links need it: its URL (Node's adapter builds it from the Host header). */
export type LinkRequest = { url: string };

const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '[::]']);

function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '[::1]' || h === '::1';
}

const bracketed = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/** The origin the server listens at (main.ts: HOST, default 127.0.0.1; PORT, default 8787); a wildcard bind answers as loopback. */
export function listeningOrigin(env: MailLinkEnv): string {
  const host = (env.HOST ?? '').trim();
  const port = Number.parseInt(env.PORT ?? '', 10);
  return `http://${bracketed(WILDCARD_HOSTS.has(host) ? '127.0.0.1' : host)}:${Number.isInteger(port) && port > 0 ? port : 8787}`;
}

function originOf(url: string): URL | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

/**
 * Host names a request may name for its mails' links: loopback ones (the link can only lead back
 * to the reader's own machine), the host the server is bound to, and the origins configured for
 * passkeys. Anything else would let a caller choose where a sign-in link in someone else's mailbox
 * points (Host header poisoning), so it is not taken.
 */
function trustedHost(hostname: string, env: MailLinkEnv): boolean {
  if (isLoopback(hostname)) return true;
  const bound = (env.HOST ?? '').trim().toLowerCase();
  if (!WILDCARD_HOSTS.has(bound) && bracketed(bound) === hostname.toLowerCase()) return true;
  return (env.LEDGERLINE_PASSKEY_ORIGINS ?? '')
    .split(',')
    .map((s) => originOf(s.trim()))
    .some((o) => o !== null && o.hostname.toLowerCase() === hostname.toLowerCase());
}

/**
 * The origin every mailed link is built on (issue 25 item 8): PUBLIC_URL when set (the SSO
 * settings hold its origin); else the origin of the request that caused the mail when its host is
 * trusted (above); else the server's own listening URL. Never relative: a link in a mail has no
 * page to be relative to.
 */
export function mailOrigin(publicUrl: string | null, request: LinkRequest, env: MailLinkEnv = process.env): string {
  if (publicUrl) {
    const configured = originOf(publicUrl);
    if (configured) return configured.origin;
  }
  const asked = originOf(request.url);
  if (asked && trustedHost(asked.hostname, env)) return asked.origin;
  return listeningOrigin(env);
}

/** An app path (`/invites/…`) as the absolute link a mail carries. */
export function absoluteLink(origin: string, path: string): string {
  return new URL(path.startsWith('/') ? path : `/${path}`, origin).toString();
}

/** The link builder for mails a request causes. */
export function mailLinks(ctx: { c: Context; deps: Pick<AppDeps, 'sso'> }, env: MailLinkEnv = process.env): (path: string) => string {
  const origin = mailOrigin(ctx.deps.sso.publicUrl, { url: ctx.c.req.url }, env);
  return (path) => absoluteLink(origin, path);
}

/** The mail port domain code is handed (SendMail): a template enqueued in the request's transaction, with the request's absolute links. */
export function mailer(ctx: { c: Context; deps: AppDeps; db: Queryable }): SendMail {
  const send = async <K extends MailTemplateName>(to: string, template: K, values: MailTemplateValues[K]): Promise<void> => {
    await enqueueMail(ctx.deps, ctx.db, { to: foldEmail(to), template, values } as MailRequest);
  };
  return Object.assign(send, { link: mailLinks(ctx) });
}
