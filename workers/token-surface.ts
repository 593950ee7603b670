import { BUSINESS_SURFACE, surfaceClaimSchema, type SurfaceClaim } from '../schema/api/scopes.ts';
import { decodeTokenClaims } from '../sync/token.ts';

/** Issue 31: what a token's claims say of its surface (the worker's side; the UI reads the session). */

/**
 * The surface a token acts on, from its claims (read, not verified: the server's surface gate
 * checks it on every call). A token without `ramp_surface` (every token before issue 31) or with
 * one that does not read is the main app's.
 */
export function tokenSurface(token: string | null | undefined): SurfaceClaim {
  const parsed = surfaceClaimSchema.safeParse(decodeTokenClaims(token)?.ramp_surface);
  return parsed.success ? parsed.data : BUSINESS_SURFACE;
}

/** The token's `external_firm_id` (a firm user's token, in the console or inside a client), else null. */
export function tokenFirmId(token: string | null | undefined): string | null {
  const id = decodeTokenClaims(token)?.external_firm_id;
  return typeof id === 'string' && id.length > 0 ? id : null;
}

/** The identity the token was issued to (`sub`), '' when it cannot be read. */
export function tokenIdentity(token: string | null | undefined): string {
  const sub = decodeTokenClaims(token)?.sub;
  return typeof sub === 'string' ? sub : '';
}

