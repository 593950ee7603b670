import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { providerChangeRefusal, removalRefusal, type SsoRuleUser } from '../../schema/sso-rules.ts';
import type { OidcClient } from '../auth/sso/oidc.ts';
import { providerDoc, providerForDomain, providerOf, providersOf, ruleView, type ProviderRow } from '../auth/sso/providers.ts';
import { decryptClientSecret, encryptClientSecret } from '../auth/sso/secret.ts';
import { newDomainToken } from '../auth/sso/domain-proof.ts';
import { takeRateLimit } from '../auth/rate-limit.ts';
import type { AppDeps } from '../core/deps.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { ok } from '../http/handler.ts';

/**
 * Storing SSO providers for the admin calls (routes/sso.ts, routes/sso-saml.ts): the domain's
 * claims and proof (AUTH_7030), the per-business limits on changes and domain checks, the rules of schema/sso-rules.ts with their inputs gathered, inserts
 * and removals, and the OIDC client a provider stands for.
 */

async function usersOf(db: Queryable, businessId: string): Promise<SsoRuleUser[]> {
  return db.query<SsoRuleUser>(
    `SELECT i.email, u.role, u.status, u.deleted FROM spend_users u JOIN identities i ON i.id = u.identity_id WHERE u.business_id = $1`,
    [businessId],
  );
}

const alreadyConfigured = (domain: string) => new ApiError('AUTH_7030', `Single sign-on is already set up for ${domain}.`);
const provenElsewhere = (domain: string) =>
  new ApiError('AUTH_7030', `Another Ledgerline business has already proved that it owns ${domain}, so single sign-on for it is set up there.`);

/**
 * AUTH_7030 when this business already has a provider (a claim) for the domain, or another
 * business has proved the domain. Another business's pending claim does not stand in the way:
 * several may claim a domain, the first to prove it wins (issue 24).
 */
export async function assertDomainFree(db: Queryable, businessId: string, domain: string): Promise<void> {
  const [own] = await db.query('SELECT 1 FROM sso_providers WHERE business_id = $1 AND lower(domain) = $2', [businessId, domain.toLowerCase()]);
  if (own) throw alreadyConfigured(domain);
  const proven = await providerForDomain(db, domain);
  if (proven && proven.business_id !== businessId) throw provenElsewhere(domain);
}

const HOUR = 60 * 60;
/**
 * Adding a provider, or replacing its IdP (metadata URL or XML, OIDC issuer) — each may fetch an
 * admin-chosen URL: per business, per hour. Enabling, enforcing and renaming do not count.
 */
const PROVIDER_CHANGES_PER_HOUR = 10;
/** Domain checks (each a DNS lookup): per business, per hour; an admin waiting for DNS retries. */
const DOMAIN_CHECKS_PER_HOUR = 30;

/** Counts one provider change of the business, or refuses it (AUTH_7029, 429 with Retry-After). */
export async function takeProviderChange(ctx: { c: Context; deps: AppDeps }, businessId: string): Promise<void> {
  await takeRateLimit(ctx.c, ctx.deps.db, [{ key: `sso-provider-change:business:${businessId}`, max: PROVIDER_CHANGES_PER_HOUR, windowSeconds: HOUR }], ctx.deps.now());
}

/** Counts one domain check of the business, or refuses it (AUTH_7029, 429 with Retry-After). */
export async function takeDomainCheck(ctx: { c: Context; deps: AppDeps }, businessId: string): Promise<void> {
  await takeRateLimit(ctx.c, ctx.deps.db, [{ key: `sso-domain-check:business:${businessId}`, max: DOMAIN_CHECKS_PER_HOUR, windowSeconds: HOUR }], ctx.deps.now());
}

/**
 * Marks the provider's domain proven, unless another business proved it first (AUTH_7030, which
 * also answers when two proofs race: the unique index on proven domains lets one through).
 */
/** AUTH_7030 when another business has proved the provider's domain (this pending claim lost). */
export async function assertNotProvenElsewhere(db: Queryable, p: ProviderRow): Promise<void> {
  const proven = await providerForDomain(db, p.domain);
  if (proven && proven.id !== p.id) throw provenElsewhere(p.domain);
}

export async function markDomainProven(db: Queryable, p: ProviderRow, nowMs: number): Promise<void> {
  await assertNotProvenElsewhere(db, p);
  try {
    await db.query('UPDATE sso_providers SET domain_proven_at = $2, updated_at = now() WHERE id = $1 AND domain_proven_at IS NULL', [p.id, new Date(nowMs)]);
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw provenElsewhere(p.domain);
    throw err;
  }
}

/** The rules of schema/sso-rules.ts for `after`, with the business's other providers and users. */
export async function assertChangeAllowed(db: Queryable, businessId: string, before: ProviderRow | null, after: ProviderRow): Promise<void> {
  const others = (await providersOf(db, businessId)).filter((p) => p.id !== after.id).map(ruleView);
  const refusal = providerChangeRefusal(before && ruleView(before), ruleView(after), others, await usersOf(db, businessId));
  if (refusal) throw new ApiError(refusal.code, refusal.message);
}

/** Inserts a provider; a concurrent claim of the same domain by the same business loses on the unique index (AUTH_7030). */
async function insertProvider(db: Queryable, p: ProviderRow, clientSecretEnc: string | null, metadataXml: string | null): Promise<void> {
  try {
    await db.query(
      `INSERT INTO sso_providers (id, business_id, protocol, brand, domain, enabled, enforced, metadata_url, metadata_xml, idp_entity_id,
         idp_sso_url, idp_certificates, issuer, client_id, client_secret_enc, oidc_metadata, domain_token)
       VALUES ($1, $2, $3, $4, $5, $6, false, $7, $8, $9, $10, $11::jsonb, $12, $13, $14, $15::jsonb, $16)`,
      [
        p.id, p.business_id, p.protocol, p.brand, p.domain, p.enabled, p.metadata_url, metadataXml,
        p.idp_entity_id, p.idp_sso_url, p.idp_certificates && JSON.stringify(p.idp_certificates), p.issuer, p.client_id, clientSecretEnc,
        p.oidc_metadata && JSON.stringify(p.oidc_metadata), p.domain_token,
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
    domain_token: newDomainToken(), domain_proven_at: null,
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

/**
 * The admin's DELETE of one provider of the business by protocol (a SAML call never removes an
 * OIDC provider, nor the reverse): unknown, another business's or another protocol's answers 404
 * with `notFound`; locked, then removed under removeProviders' rule.
 */
export async function deleteProviderOf(
  tx: Queryable, businessId: string, id: string, protocol: ProviderRow['protocol'], notFound: string,
): Promise<void> {
  const p = await providerOf(tx, businessId, id, true);
  if (!p || p.protocol !== protocol) throw new ApiError('REQUEST_7004', notFound);
  await removeProviders(tx, [p]);
}

/** The removals of one or more providers: AUTH_7021 while any is enforced. */
export async function removeProviders(db: Queryable, providers: ProviderRow[]): Promise<number> {
  const refusal = removalRefusal(providers.map(ruleView));
  if (refusal) throw new ApiError(refusal.code, refusal.message);
  if (providers.length === 0) return 0;
  await db.query('DELETE FROM sso_providers WHERE id = ANY($1::uuid[])', [providers.map((p) => p.id)]);
  return providers.length;
}
