import type { CallAuth } from '../schema/api/scopes.ts';
import { STEP_UP_SCOPES } from '../schema/api/scopes.ts';
import { isHiddenSpendUser, type Actor } from '../schema/roles.ts';
import type { Clock } from './ports.ts';
import { decodeTokenClaims } from './token.ts';

/**
 * Client-side session rules (§3, §4, §6): when a token is fully scoped, the token wait, which
 * token a call carries once the user has stepped up, and which business a tab shows.
 */

/** §4: a token is fully scoped once it carries `default` and any MFA it requires is done. */
export function isFullyScoped(token: string | null | undefined): boolean {
  const claims = decodeTokenClaims(token);
  if (!claims) return false;
  if (claims.ramp_mfa_required === true && claims.ramp_mfa_authed !== true) return false;
  return claims.ramp_access_scopes.includes('default');
}

export const TOKEN_WAIT_FAILURE = 'Failed to resolve authenticated state';
const TOKEN_POLL_MS = 50;

/**
 * §4 token wait: resolves with the first fully scoped token `getToken` offers, polling until
 * `waitMs` (1 s mobile / 10 s web) has passed, then gives up with TOKEN_WAIT_FAILURE.
 */
export async function waitForFullToken(opts: {
  clock: Clock;
  getToken: () => string | null;
  waitMs: number;
  pollMs?: number;
  signal?: AbortSignal;
}): Promise<string> {
  const deadline = opts.clock.now() + opts.waitMs;
  for (;;) {
    const token = opts.getToken();
    if (isFullyScoped(token) && token) return token;
    const left = deadline - opts.clock.now();
    if (left <= 0) throw new Error(TOKEN_WAIT_FAILURE);
    await opts.clock.sleep(Math.min(opts.pollMs ?? TOKEN_POLL_MS, left), opts.signal);
  }
}

/** Does the call need a step-up scope (sensitive or email-otp) the base token lacks? */
export function needsStepUpToken(auth: CallAuth): boolean {
  return auth.kind === 'scopes' && auth.scopes.some((s) => (STEP_UP_SCOPES as readonly string[]).includes(s));
}

/**
 * The stepped-up token is kept only for its lifetime (its `exp`) and used only for calls that
 * need a step-up scope; every other call keeps the base session token.
 */
export class StepUpTokens {
  private token: string | null = null;
  private expiresAt = 0;

  constructor(private readonly clock: Clock) {}

  /** `expiresAt` (ms) from the step-up answer; the token's own `exp` when not given. */
  set(token: string, expiresAt?: number): void {
    const exp = decodeTokenClaims(token)?.exp;
    this.token = token;
    this.expiresAt = expiresAt ?? (typeof exp === 'number' ? exp * 1000 : 0);
  }

  clear(): void {
    this.token = null;
    this.expiresAt = 0;
  }

  /** The stepped-up token while it lives, else null (and it is forgotten). */
  current(): string | null {
    if (this.token && this.clock.now() < this.expiresAt) return this.token;
    this.clear();
    return null;
  }

  /** The token a call should carry. */
  tokenFor(auth: CallAuth, base: string | null): string | null {
    if (!base) return null;
    return needsStepUpToken(auth) ? (this.current() ?? base) : base;
  }
}

export const BUSINESS_ID_KEY = 'ledgerline.businessId';

/** Hidden spend users (vendor network, advisor console) never appear in the business switcher. */
export const switcherUsers = <U extends Pick<Actor, 'role'>>(users: readonly U[]): U[] =>
  users.filter((u) => !isHiddenSpendUser(u));

/** The switcher is shown only when there is a choice to make. */
export const showsBusinessSwitcher = (users: readonly Pick<Actor, 'role'>[]) => switcherUsers(users).length > 1;
