import { DEFAULT_EMAIL_DOMAIN, DEMO_PASSWORD } from '../server/seed/types.ts';

/** The seeded owner's id token from a running server (the feed scripts pull as the owner). */
export async function ownerToken(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/public/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `owner@${DEFAULT_EMAIL_DOMAIN}`, password: DEMO_PASSWORD }),
  });
  if (!res.ok) throw new Error(`owner sign-in failed: ${res.status}`);
  return ((await res.json()) as { id_token: string }).id_token;
}
