import type { Queryable } from '../db/db.ts';
import { foldEmail } from './email-address.ts';
import { recordFailure, throttledFor, type Limit } from './rate-limit.ts';

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/**
 * Sign-in throttling that protects accounts without letting anyone lock their owner out (OWASP
 * authentication guidance: throttle the guesser, not the account):
 * - The (account, client address) pair is the unit: its first 5 failures cost nothing, then each
 *   further try waits 30 s after the last failure, doubling per failure up to 15 min; a pair's
 *   failures are remembered 24 h, and its success forgets them.
 * - A pair with no failures is never refused: other addresses' failures on the account, and this
 *   address's failures on other accounts, do not stop a correct password.
 * - Against one client spraying many accounts: once an address has 50 failures in 15 min, it may
 *   not try again, until the window slides, on any account it has failed on.
 * - Against distributed guessing: once an account has 100 failures in an hour from anywhere, every
 *   address that has failed on it waits for that window; clean addresses still sign in.
 */
export const SIGN_IN_POLICY = {
  pairFreeFailures: 5,
  pairFirstDelaySeconds: 30,
  pairMaxDelaySeconds: 15 * MINUTE,
  pairWindowSeconds: 24 * HOUR,
  addressMaxFailures: 50,
  addressWindowSeconds: 15 * MINUTE,
  accountCeiling: 100,
  accountCeilingWindowSeconds: HOUR,
} as const;
const P = SIGN_IN_POLICY;

/** In-process requests (tests) have no address: they are one client. */
const NO_ADDRESS = 'in-process';

export type SignInKeys = { pair: Limit; address: Limit | null; account: Limit };

export function signInKeys(email: string, address: string | null): SignInKeys {
  const account = foldEmail(email);
  return {
    pair: { key: `sign-in:pair:${account}|${address ?? NO_ADDRESS}`, max: P.pairFreeFailures, windowSeconds: P.pairWindowSeconds },
    address: address ? { key: `sign-in:address:${address}`, max: P.addressMaxFailures, windowSeconds: P.addressWindowSeconds } : null,
    account: { key: `sign-in:account:${account}`, max: P.accountCeiling, windowSeconds: P.accountCeilingWindowSeconds },
  };
}

/** How long a pair waits after its n-th failure: nothing for the free ones, then doubling to the cap. */
export function pairDelaySeconds(failures: number): number {
  const over = failures - P.pairFreeFailures;
  return over < 0 ? 0 : Math.min(P.pairMaxDelaySeconds, P.pairFirstDelaySeconds * 2 ** over);
}

/** Seconds this pair must still wait before its password is even checked; null to go ahead. */
export async function signInRetryAfter(db: Queryable, keys: SignInKeys, nowMs: number): Promise<number | null> {
  const [pair] = await db.query<{ n: number; last: Date | null }>(
    'SELECT count(*)::int AS n, max(at) AS last FROM login_failures WHERE key = $1 AND at > $2',
    [keys.pair.key, new Date(nowMs - keys.pair.windowSeconds * 1000)],
  );
  if (!pair || pair.n === 0 || !pair.last) return null;
  const wait = Math.ceil((new Date(pair.last).getTime() + pairDelaySeconds(pair.n) * 1000 - nowMs) / 1000);
  if (wait > 0) return wait;
  // This address has failed on this account: the spraying budget and the ceiling apply to it.
  return throttledFor(db, keys.address ? [keys.address, keys.account] : [keys.account], nowMs);
}

export const recordSignInFailure = (db: Queryable, keys: SignInKeys, nowMs: number) =>
  recordFailure(db, [keys.pair, ...(keys.address ? [keys.address] : []), keys.account], nowMs);

/** A correct password forgets its pair's failures (the address and account counts stay: they bound others). */
export async function clearSignInFailures(db: Queryable, keys: SignInKeys): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE key = $1', [keys.pair.key]);
}

/** Re-entering the password at step-up has its own budget, so it never locks the sign-in. */
export const STEP_UP_PASSWORD_LIMIT = { max: 5, windowSeconds: 15 * MINUTE } as const;
export const stepUpPasswordLimits = (identityId: string): Limit[] => [
  { key: `step-up-password:identity:${identityId}`, ...STEP_UP_PASSWORD_LIMIT },
];

/**
 * Wrong second-factor codes (TOTP at verify-mfa, enrolment and step-up; emailed codes) share one
 * budget per person and one per session: 5 in 15 minutes, then every code, a correct one too, is
 * refused until the window slides.
 */
export const SECOND_FACTOR_LIMIT = { max: 5, windowSeconds: 15 * MINUTE } as const;
export const secondFactorLimits = (identityId: string, sessionId: string): Limit[] => [
  { key: `second-factor:identity:${identityId}`, ...SECOND_FACTOR_LIMIT },
  { key: `second-factor:session:${sessionId}`, ...SECOND_FACTOR_LIMIT },
];
/** Marks that the person was told of a block, so one block mails once. */
export const secondFactorNoticeLimit = (identityId: string): Limit => ({
  key: `second-factor:notified:${identityId}`, max: 1, windowSeconds: SECOND_FACTOR_LIMIT.windowSeconds,
});
