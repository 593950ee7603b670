import type { Queryable } from '../../db/db.ts';
import { SamlError } from './errors.ts';
import { SAML_CLOCK_SKEW_MS, type SamlAssertion } from './verify-response.ts';

/**
 * One use per assertion id per provider. The row is kept until the assertion could no longer pass
 * verification anyway (its expiry plus the clock skew we allow), so replay protection never lapses
 * while the assertion is still acceptable. The unique key decides races: of two concurrent
 * consumers exactly one inserts. The provider's expired rows are purged on each use (a range of
 * the primary key), so the table stays the size of the assertions still live.
 * Throws SamlError('replayed') when this provider has already accepted this assertion id.
 */
export async function consumeAssertion(db: Queryable, providerId: string, a: SamlAssertion): Promise<void> {
  const keepUntil = new Date(a.expiresAt.getTime() + SAML_CLOCK_SKEW_MS).toISOString();
  const inserted = await db.query(
    `INSERT INTO sso_saml_assertions (provider_id, assertion_id, expires_at) VALUES ($1, $2, $3)
     ON CONFLICT (provider_id, assertion_id) DO NOTHING RETURNING 1 AS ok`,
    [providerId, a.assertionId, keepUntil],
  );
  if (inserted.length === 0) {
    throw new SamlError('replayed', 'This sign-in response was already used; start the sign-in again.');
  }
  await db.query('DELETE FROM sso_saml_assertions WHERE provider_id = $1 AND expires_at < now()', [providerId]);
}
