import { z } from 'zod';

/**
 * Reads the id token's claims WITHOUT verifying the signature: the client only uses them to
 * decide whether a call is worth sending (the scope gate) and never trusts them for anything
 * the server does not check again. Unknown claims are kept; missing scopes read as none.
 */
const clientClaimsSchema = z
  .object({
    ramp_access_scopes: z.array(z.string()).default([]),
    exp: z.number().optional(),
    iat: z.number().optional(),
  })
  .loose();
export type ClientClaims = z.infer<typeof clientClaimsSchema>;

/** Decodes a JWT payload (base64url JSON). Returns null for anything that is not a JWT. */
export function decodeTokenClaims(token: string | null | undefined): ClientClaims | null {
  if (!token) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const json = new TextDecoder().decode(base64UrlToBytes(parts[1]));
    const parsed = clientClaimsSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The token's access scopes, or none when it cannot be read. */
export function tokenScopes(token: string | null | undefined): string[] {
  return decodeTokenClaims(token)?.ramp_access_scopes ?? [];
}

function base64UrlToBytes(segment: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) throw new Error('not base64url');
  const b64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = b64 + '='.repeat((4 - (b64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
