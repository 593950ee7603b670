import { SSO_BROWSER_PATHS, type SsoProvider } from '../../../schema/api/calls-sso.ts';
import type { SsoRuleProvider } from '../../../schema/sso-rules.ts';
import type { Queryable } from '../../db/db.ts';
import { certificateFingerprint } from '../saml/index.ts';
import { domainChallenge } from './domain-proof.ts';
import type { OidcMetadata } from './oidc.ts';

/** An sso_providers row as the routes read it (dates as ISO text). */
export type ProviderRow = {
  id: string; business_id: string; protocol: 'saml' | 'oidc'; brand: SsoProvider['brand']; domain: string;
  enabled: boolean; enforced: boolean; verified_at: string | null;
  metadata_url: string | null; idp_entity_id: string | null; idp_sso_url: string | null; idp_certificates: string[] | null;
  issuer: string | null; client_id: string | null; client_secret_enc: string | null; oidc_metadata: OidcMetadata | null;
  /** The domain claim (issue 24): its random token, and when the TXT record proved it (null: pending). */
  domain_token: string; domain_proven_at: string | null;
  created_at: string; updated_at: string;
};

const COLUMNS = `id::text, business_id::text, protocol, brand, domain, enabled, enforced, ll_iso(verified_at) AS verified_at,
  metadata_url, idp_entity_id, idp_sso_url, idp_certificates, issuer, client_id, client_secret_enc, oidc_metadata,
  domain_token, ll_iso(domain_proven_at) AS domain_proven_at, ll_iso(created_at) AS created_at, ll_iso(updated_at) AS updated_at`;

export async function providersOf(db: Queryable, businessId: string, lock = false): Promise<ProviderRow[]> {
  return db.query<ProviderRow>(`SELECT ${COLUMNS} FROM sso_providers WHERE business_id = $1 ORDER BY domain${lock ? ' FOR UPDATE' : ''}`, [businessId]);
}

/** A provider of this business (another business's id answers null, like an unknown one). */
export async function providerOf(db: Queryable, businessId: string, id: string, lock = false): Promise<ProviderRow | null> {
  const rows = await db.query<ProviderRow>(
    `SELECT ${COLUMNS} FROM sso_providers WHERE id = $1 AND business_id = $2${lock ? ' FOR UPDATE' : ''}`, [id, businessId],
  );
  return rows[0] ?? null;
}

export async function providerById(db: Queryable, id: string): Promise<ProviderRow | null> {
  return (await db.query<ProviderRow>(`SELECT ${COLUMNS} FROM sso_providers WHERE id = $1`, [id]))[0] ?? null;
}

/**
 * The provider of an email domain, whichever business configured it: only a proven one (pending
 * claims, of which several businesses may hold one, bind nobody). At most one per domain (index).
 */
export async function providerForDomain(db: Queryable, domain: string): Promise<ProviderRow | null> {
  return (await db.query<ProviderRow>(
    `SELECT ${COLUMNS} FROM sso_providers WHERE lower(domain) = $1 AND domain_proven_at IS NOT NULL`, [domain.toLowerCase()],
  ))[0] ?? null;
}

export const ruleView = (p: Pick<ProviderRow, 'id' | 'domain' | 'enabled' | 'enforced' | 'verified_at' | 'domain_proven_at'>): SsoRuleProvider => ({
  id: p.id, domain: p.domain, enabled: p.enabled, enforced: p.enforced, verified: p.verified_at !== null, domainProven: p.domain_proven_at !== null,
});

/** What our side of a SAML connection is called, on the public origin. */
export function samlSp(origin: string, providerId: string): { entityId: string; acsUrl: string; metadataUrl: string } {
  const metadataUrl = `${origin}${SSO_BROWSER_PATHS.samlMetadata(providerId)}`;
  return { entityId: metadataUrl, acsUrl: `${origin}${SSO_BROWSER_PATHS.samlAcs(providerId)}`, metadataUrl };
}

export const oidcRedirectUri = (origin: string) => `${origin}${SSO_BROWSER_PATHS.oidcCallback}`;

/** The admin's view (never the secret). `origin`: the public origin the SP URLs are built on. */
export function providerDoc(p: ProviderRow, origin: string): SsoProvider {
  const sp = samlSp(origin, p.id);
  return {
    id: p.id, business_id: p.business_id, protocol: p.protocol, brand: p.brand, domain: p.domain,
    enabled: p.enabled, enforced: p.enforced, verified_at: p.verified_at,
    domain_status: p.domain_proven_at ? 'proven' : 'pending', domain_proven_at: p.domain_proven_at,
    domain_challenge: domainChallenge(p.domain, p.domain_token),
    saml: p.protocol === 'saml'
      ? {
          metadata_url: p.metadata_url, idp_entity_id: p.idp_entity_id ?? '', idp_sso_url: p.idp_sso_url ?? '',
          certificate_fingerprints: (p.idp_certificates ?? []).map(certificateFingerprint),
          sp_entity_id: sp.entityId, acs_url: sp.acsUrl, sp_metadata_url: sp.metadataUrl,
        }
      : null,
    oidc: p.protocol === 'oidc'
      ? { issuer: p.issuer ?? '', client_id: p.client_id ?? '', has_client_secret: p.client_secret_enc !== null, redirect_uri: oidcRedirectUri(origin) }
      : null,
    created_at: p.created_at, updated_at: p.updated_at,
  };
}
