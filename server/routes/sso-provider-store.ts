import { randomUUID } from 'node:crypto';
import { providerChangeRefusal, removalRefusal, type SsoRuleUser } from '../../schema/sso-rules.ts';
import type { OidcClient } from '../auth/sso/oidc.ts';
import { providerDoc, providerForDomain, providerOf, providersOf, ruleView, type ProviderRow } from '../auth/sso/providers.ts';
import { decryptClientSecret, encryptClientSecret } from '../auth/sso/secret.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { ok } from '../http/handler.ts';

/**
 * Storing SSO providers for the admin calls (routes/sso.ts, routes/sso-saml.ts): the domain's
 * uniqueness (AUTH_7030), the rules of schema/sso-rules.ts with their inputs gathered, inserts
 * and removals, and the OIDC client a provider stands for.
 */

async function usersOf(db: Queryable, businessId: string): Promise<SsoRuleUser[]> {
  return db.query<SsoRuleUser>(
    `SELECT i.email, u.role, u.status, u.deleted FROM spend_users u JOIN identities i ON i.id = u.identity_id WHERE u.business_id = $1`,
    [businessId],
  );
}

const alreadyConfigured = (domain: string) => new ApiError('AUTH_7030', `Single sign-on is already set up for ${domain}.`);

/** AUTH_7030 when any business has a provider for the domain (sign-in finds providers by domain). */
export async function assertDomainFree(db: Queryable, domain: string): Promise<void> {
  if (await providerForDomain(db, domain)) throw alreadyConfigured(domain);
}

/** The rules of schema/sso-rules.ts for `after`, with the business's other providers and users. */
export async function assertChangeAllowed(db: Queryable, businessId: string, before: ProviderRow | null, after: ProviderRow): Promise<void> {
  const others = (await providersOf(db, businessId)).filter((p) => p.id !== after.id).map(ruleView);
  const refusal = providerChangeRefusal(before && ruleView(before), ruleView(after), others, await usersOf(db, businessId));
  if (refusal) throw new ApiError(refusal.code, refusal.message);
}

/** Inserts a provider; a concurrent configuration of the same domain loses on the unique index (AUTH_7030). */
async function insertProvider(db: Queryable, p: ProviderRow, clientSecretEnc: string | null, metadataXml: string | null): Promise<void> {
  try {
    await db.query(
      `INSERT INTO sso_providers (id, business_id, protocol, brand, domain, enabled, enforced, metadata_url, metadata_xml, idp_entity_id,
         idp_sso_url, idp_certificates, issuer, client_id, client_secret_enc, oidc_metadata)
       VALUES ($1, $2, $3, $4, $5, $6, false, $7, $8, $9, $10, $11::jsonb, $12, $13, $14, $15::jsonb)`,
      [
        p.id, p.business_id, p.protocol, p.brand, p.domain, p.enabled, p.metadata_url, metadataXml,
        p.idp_entity_id, p.idp_sso_url, p.idp_certificates && JSON.stringify(p.idp_certificates), p.issuer, p.client_id, clientSecretEnc,
        p.oidc_metadata && JSON.stringify(p.oidc_metadata),
      ],
    );
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw alreadyConfigured(p.domain);
    throw err;
  }
}

/** A new provider row before it is stored (the rules judge it first). */
export function draftProvider(actor: Actor, fields: Partial<ProviderRow> & Pick<ProviderRow, 'protocol' | 'brand' | 'domain'>, enabled: boolean): ProviderRow {
  const now = new Date().toISOString();
  return {
    id: randomUUID(), business_id: actor.businessId, enabled, enforced: false, verified_at: null,
    metadata_url: null, idp_entity_id: null, idp_sso_url: null, idp_certificates: null,
    issuer: null, client_id: null, client_secret_enc: null, oidc_metadata: null, created_at: now, updated_at: now,
    ...fields,
  };
}

/** Stores a new provider (after the rules) and answers the admin's view of it. */
export async function createProvider(db: Queryable, base: string, draft: ProviderRow, secrets: { clientSecret?: string; metadataXml?: string }) {
  await assertChangeAllowed(db, draft.business_id, null, draft);
  const secretEnc = secrets.clientSecret === undefined ? null : await encryptClientSecret(db, draft.id, secrets.clientSecret);
  await insertProvider(db, draft, secretEnc, secrets.metadataXml ?? null);
  const stored = await providerOf(db, draft.business_id, draft.id);
  return ok(providerDoc(stored!, base), 201);
}

/** The provider's OIDC client, its secret decrypted. */
export async function oidcClientOf(db: Queryable, p: ProviderRow): Promise<OidcClient> {
  if (!p.oidc_metadata || !p.client_id || !p.client_secret_enc) throw new Error(`OIDC provider ${p.id} is incomplete`);
  return { metadata: p.oidc_metadata, clientId: p.client_id, clientSecret: await decryptClientSecret(db, p.id, p.client_secret_enc) };
}

/** The removals of one or more providers: AUTH_7021 while any is enforced. */
export async function removeProviders(db: Queryable, providers: ProviderRow[]): Promise<number> {
  const refusal = removalRefusal(providers.map(ruleView));
  if (refusal) throw new ApiError(refusal.code, refusal.message);
  if (providers.length === 0) return 0;
  await db.query('DELETE FROM sso_providers WHERE id = ANY($1::uuid[])', [providers.map((p) => p.id)]);
  return providers.length;
}
