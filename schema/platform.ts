import {
  MOBILE_FLAG_MEMORY_MS,
  REQUEST_TIMEOUT_MOBILE_MS,
  REQUEST_TIMEOUT_WEB_MS,
  TOKEN_WAIT_MOBILE_MS,
  TOKEN_WAIT_WEB_MS,
} from './constants.ts';
import { isHiddenSpendUser } from './roles.ts';
import type { Surface } from './api/scopes.ts';

export type Platform = 'web' | 'mobile';

/**
 * §1 mobile wrapper: an iOS/Android user agent or `is_mobile_app` in the query marks the app
 * as running inside the wrapper; the query flag is remembered for 5 minutes. Returns the
 * decision and the timestamp to remember (null to forget).
 */
export function detectPlatform(input: {
  userAgent: string;
  search: string;
  rememberedAt: number | null;
  now: number;
}): { platform: Platform; remember: number | null } {
  const flagged = new URLSearchParams(input.search).has('is_mobile_app');
  if (flagged) return { platform: 'mobile', remember: input.now };
  const remembered = input.rememberedAt !== null && input.now - input.rememberedAt < MOBILE_FLAG_MEMORY_MS;
  if (/\b(iPhone|iPad|iPod|Android)\b/i.test(input.userAgent)) {
    return { platform: 'mobile', remember: remembered ? input.rememberedAt : null };
  }
  return { platform: remembered ? 'mobile' : 'web', remember: remembered ? input.rememberedAt : null };
}

/** §9: 15 s on mobile, none on web. */
export const requestTimeoutMs = (p: Platform): number | null =>
  p === 'mobile' ? REQUEST_TIMEOUT_MOBILE_MS : REQUEST_TIMEOUT_WEB_MS;
/** §4/§9: wait for a fully scoped token 1 s on mobile, 10 s otherwise. */
export const tokenWaitMs = (p: Platform): number => (p === 'mobile' ? TOKEN_WAIT_MOBILE_MS : TOKEN_WAIT_WEB_MS);

const MOBILE_UNSUPPORTED_USER_MESSAGE = 'This user is not supported on the mobile app';

/**
 * §1: onboarding (the financing application, `/application`; `/onboarding` its old address), the
 * vendor portal, the advisor console and some roles are not supported in the wrapper; nor is a
 * session of any surface but the main app (issue 31: `surface`, the token's `ramp_surface` kind),
 * wherever it navigates.
 */
export function mobileUnsupportedReason(
  platform: Platform,
  ctx: { pathname: string; role: string | null; surface?: Surface | null },
): string | null {
  if (platform !== 'mobile') return null;
  if (/^\/(onboarding|application|vendor-portal|console)(\/|$)/.test(ctx.pathname)) return MOBILE_UNSUPPORTED_USER_MESSAGE;
  if (ctx.surface && ctx.surface !== 'BUSINESS') return MOBILE_UNSUPPORTED_USER_MESSAGE;
  if (ctx.role && isHiddenSpendUser({ role: ctx.role })) return MOBILE_UNSUPPORTED_USER_MESSAGE;
  return null;
}
