import type { Context } from 'hono';
import type { Queryable } from '../db/db.ts';
import type { QuotaSettings } from '../core/deps.ts';
import { resolveWholeSettings } from '../core/env-settings.ts';
import { ApiError } from '../core/errors.ts';
import { foldEmail } from './email-address.ts';

/**
 * Quotas (issue 24): how much a person, a business or a client address may do in a sliding
 * window, answered with 429 QUOTA_EXCEEDED, words that say which quota and when it opens again,
 * and Retry-After. Unlike the rate limits of rate-limit.ts (failed attempts, AUTH_7029), a quota
 * counts work that succeeded, and may count bytes as well as requests. Every number is
 * configurable (LEDGERLINE_QUOTA_*, read once by createApp; docs/quotas.md explains the defaults).
 */
export type { QuotaSettings };

const MB = 1024 * 1024;
export const DEFAULT_QUOTAS: QuotaSettings = {
  invitesPerInviterPerHour: 100,
  invitesPerBusinessPerDay: 500,
  receiptsPerPersonPerHour: 120,
  receiptBytesPerPersonPerDay: 500 * MB,
  signUpsPerAddressPerHour: 20,
  signUpsPerEmailPerHour: 5,
  signInLinksPerAddressPerHour: 30,
  signInLinksPerEmailPerHour: 10,
};

/** The environment variable of each setting: LEDGERLINE_QUOTA_ + its name in upper snake case. */
export const QUOTA_ENV: Record<keyof QuotaSettings, string> = {
  invitesPerInviterPerHour: 'LEDGERLINE_QUOTA_INVITES_PER_INVITER_PER_HOUR',
  invitesPerBusinessPerDay: 'LEDGERLINE_QUOTA_INVITES_PER_BUSINESS_PER_DAY',
  receiptsPerPersonPerHour: 'LEDGERLINE_QUOTA_RECEIPTS_PER_PERSON_PER_HOUR',
  receiptBytesPerPersonPerDay: 'LEDGERLINE_QUOTA_RECEIPT_MB_PER_PERSON_PER_DAY',
  signUpsPerAddressPerHour: 'LEDGERLINE_QUOTA_SIGN_UPS_PER_ADDRESS_PER_HOUR',
  signUpsPerEmailPerHour: 'LEDGERLINE_QUOTA_SIGN_UPS_PER_EMAIL_PER_HOUR',
  signInLinksPerAddressPerHour: 'LEDGERLINE_QUOTA_SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR',
  signInLinksPerEmailPerHour: 'LEDGERLINE_QUOTA_SIGN_IN_LINKS_PER_EMAIL_PER_HOUR',
};

/**
 * The quotas in force: createApp's overrides (tests), else the environment, else the defaults.
 * The byte quota's variable is in megabytes. A value that is not a positive whole number stops
 * the server at start, naming the variable, rather than running with no quota.
 */
export function resolveQuotas(overrides: Partial<QuotaSettings> = {}, env: Record<string, string | undefined> = process.env): QuotaSettings {
  return resolveWholeSettings({
    defaults: DEFAULT_QUOTAS, envNames: QUOTA_ENV, overrides, env, mustBe: 'must be a whole number of at least 1',
    fromEnv: (name, value) => (name === 'receiptBytesPerPersonPerDay' ? value * MB : value),
  });
}

const HOUR = 60 * 60;
const DAY = 24 * HOUR;

/**
 * One quota as a check: the key whose usage it sums, the maximum and window, and the refusal's
 * words given what was used in the window and the seconds until there is room.
 */
export type Quota = {
  key: string;
  max: number;
  windowSeconds: number;
  /** What this request uses: 1, or its bytes. */
  amount: number;
  refusal: (used: number, retryAfterSeconds: number) => string;
};

/** "45 seconds", "12 minutes", "3 hours": rounded up, so the caller never comes back too early. */
export function waitWords(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return unit(Math.max(1, Math.ceil(seconds)), 'second');
  if (seconds < 90 * 60) return unit(Math.ceil(seconds / 60), 'minute');
  return unit(Math.ceil(seconds / HOUR), 'hour');
}

/** "500 MB", "2.5 MB", "800 KB", "120 bytes". */
export function sizeWords(bytes: number): string {
  if (bytes >= MB) return `${Number((bytes / MB).toFixed(bytes >= 10 * MB ? 0 : 1))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
}
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const windowWords = (seconds: number) => (seconds === HOUR ? 'the last hour' : seconds === DAY ? 'the last 24 hours' : `the last ${waitWords(seconds)}`);

/** Invites: per inviter per hour and per business per day; every invite and resend counts one. */
export function inviteQuotas(q: QuotaSettings, inviter: { id: string; business_id: string }): Quota[] {
  return [
    {
      key: `invites:inviter:${inviter.id}`, max: q.invitesPerInviterPerHour, windowSeconds: HOUR, amount: 1,
      refusal: (used, wait) => `You have sent ${plural(used, 'invite', 'invites')} in ${windowWords(HOUR)}; try again in ${waitWords(wait)}.`,
    },
    {
      key: `invites:business:${inviter.business_id}`, max: q.invitesPerBusinessPerDay, windowSeconds: DAY, amount: 1,
      refusal: (used, wait) => `Your business has sent ${plural(used, 'invite', 'invites')} in ${windowWords(DAY)}, its daily limit; try again in ${waitWords(wait)}.`,
    },
  ];
}

/** Receipt uploads: per person per hour (count) and per person per day (bytes of this file). */
export function receiptQuotas(q: QuotaSettings, uploaderId: string, bytes: number): Quota[] {
  return [
    {
      key: `receipts:person:${uploaderId}`, max: q.receiptsPerPersonPerHour, windowSeconds: HOUR, amount: 1,
      refusal: (used, wait) => `You have uploaded ${plural(used, 'receipt', 'receipts')} in ${windowWords(HOUR)}; try again in ${waitWords(wait)}.`,
    },
    {
      key: `receipt-bytes:person:${uploaderId}`, max: q.receiptBytesPerPersonPerDay, windowSeconds: DAY, amount: bytes,
      refusal: (used, wait) => `You have uploaded ${sizeWords(used)} of receipts in ${windowWords(DAY)}; this file would pass your daily ${sizeWords(q.receiptBytesPerPersonPerDay)}. Try again in ${waitWords(wait)}.`,
    },
  ];
}

/** Sign-ups: per client address (when known) and per email address asked for. */
export function signUpQuotas(q: QuotaSettings, address: string | null, email: string): Quota[] {
  return [
    ...(address ? [{
      key: `sign-ups:address:${address}`, max: q.signUpsPerAddressPerHour, windowSeconds: HOUR, amount: 1,
      refusal: (used: number, wait: number) => `There have been ${plural(used, 'sign-up', 'sign-ups')} from your network in ${windowWords(HOUR)}; try again in ${waitWords(wait)}.`,
    }] : []),
    {
      key: `sign-ups:email:${foldEmail(email)}`, max: q.signUpsPerEmailPerHour, windowSeconds: HOUR, amount: 1,
      refusal: (used, wait) => `This email address was used to sign up ${plural(used, 'time', 'times')} in ${windowWords(HOUR)}; try again in ${waitWords(wait)}.`,
    },
  ];
}

/**
 * Sign-in links: per client address (when known) and per email address asked for, known or not
 * (the answer is the same either way, so the quota tells nothing about accounts).
 */
export function signInLinkQuotas(q: QuotaSettings, address: string | null, email: string): Quota[] {
  return [
    ...(address ? [{
      key: `sign-in-links:address:${address}`, max: q.signInLinksPerAddressPerHour, windowSeconds: HOUR, amount: 1,
      refusal: (used: number, wait: number) => `${plural(used, 'sign-in link was', 'sign-in links were')} requested from your network in ${windowWords(HOUR)}; try again in ${waitWords(wait)}.`,
    }] : []),
    {
      key: `sign-in-links:email:${foldEmail(email)}`, max: q.signInLinksPerEmailPerHour, windowSeconds: HOUR, amount: 1,
      refusal: (used, wait) => `${plural(used, 'sign-in link was', 'sign-in links were')} requested for this email address in ${windowWords(HOUR)}; try again in ${waitWords(wait)}.`,
    },
  ];
}

class QuotaExceededError extends ApiError {
  constructor(message: string, readonly retryAfterSeconds: number) {
    super('QUOTA_EXCEEDED', message);
  }
}

/** Advisory-lock class of quota keys (the two-key form, so it never meets another lock's key). */
const QUOTA_LOCK_CLASS = 24;

/**
 * The refusal for the first quota this request would pass, or null. The wait is until enough of
 * the window's oldest usage has left it for this request's amount to fit (a single amount larger
 * than the quota never fits: it waits the whole window, and the words still say why).
 */
async function quotaRefusal(db: Queryable, quotas: Quota[], nowMs: number): Promise<QuotaExceededError | null> {
  for (const quota of quotas) {
    const windowMs = quota.windowSeconds * 1000;
    const rows = await db.query<{ at: Date | string; amount: number | string }>(
      'SELECT at, amount FROM quota_usage WHERE key = $1 AND at > $2 ORDER BY at',
      [quota.key, new Date(nowMs - windowMs)],
    );
    const used = rows.reduce((sum, r) => sum + Number(r.amount), 0);
    if (used + quota.amount <= quota.max) continue;
    // Walk the oldest usage out of the window until this request fits.
    let left = used;
    let opensAt = nowMs + windowMs;
    for (const row of rows) {
      left -= Number(row.amount);
      if (left + quota.amount <= quota.max) {
        opensAt = new Date(row.at).getTime() + windowMs;
        break;
      }
    }
    const wait = Math.max(1, Math.ceil((opensAt - nowMs) / 1000));
    return new QuotaExceededError(quota.refusal(used, wait), wait);
  }
  return null;
}

/**
 * Refuses (429 QUOTA_EXCEEDED with Retry-After on the context) or records this request's usage
 * against every quota. In a transaction (the write calls), a transaction-scoped advisory lock per
 * key makes concurrent requests of one key count one after another, and a write that is refused
 * later rolls its usage back with it: only work that happened counts. Outside one (the public
 * calls) the check then insert may overshoot by the callers' concurrency, which only bounds abuse.
 */
export async function takeQuota(c: Context, db: Queryable, quotas: Quota[], nowMs: number): Promise<void> {
  for (const quota of quotas) await db.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [QUOTA_LOCK_CLASS, quota.key]);
  const refusal = await quotaRefusal(db, quotas, nowMs);
  if (refusal) {
    c.header('Retry-After', String(refusal.retryAfterSeconds));
    throw refusal;
  }
  const at = new Date(nowMs);
  for (const quota of quotas) {
    await db.query('INSERT INTO quota_usage (key, at, amount) VALUES ($1, $2, $3)', [quota.key, at, quota.amount]);
    await db.query('DELETE FROM quota_usage WHERE key = $1 AND at <= $2', [quota.key, new Date(nowMs - quota.windowSeconds * 1000)]);
  }
}
