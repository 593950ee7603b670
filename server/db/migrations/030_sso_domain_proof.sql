-- Issue 24: an SSO provider's email domain binds nobody until the business proves it owns it, by
-- a DNS TXT record `_ledgerline-challenge.<domain>` holding the claim's token
-- (server/auth/sso/domain-proof.ts). Until then the claim is pending: it cannot be enabled or
-- enforced, sign-in does not find it, and other businesses may hold pending claims for the same
-- domain; the first to prove it wins (one proven provider per domain across all businesses).

ALTER TABLE sso_providers ADD COLUMN domain_token text;
ALTER TABLE sso_providers ADD COLUMN domain_proven_at timestamptz;

-- Rows made under the old rule proved nothing: each becomes a pending claim with its own random
-- token, switched off (nothing unproven binds anyone); the admin proves the domain, then enables.
UPDATE sso_providers
   SET domain_token = replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''),
       enabled = false, enforced = false;
ALTER TABLE sso_providers ALTER COLUMN domain_token SET NOT NULL;

-- A pending domain cannot be enabled (so not enforced either: `enabled OR NOT enforced`).
ALTER TABLE sso_providers ADD CONSTRAINT sso_providers_enabled_needs_proof CHECK (domain_proven_at IS NOT NULL OR NOT enabled);

-- Uniqueness of a domain holds among proven providers only; one claim per domain per business.
DROP INDEX sso_providers_domain_key;
CREATE UNIQUE INDEX sso_providers_proven_domain_key ON sso_providers (lower(domain)) WHERE domain_proven_at IS NOT NULL;
CREATE UNIQUE INDEX sso_providers_business_domain_key ON sso_providers (business_id, lower(domain));
CREATE INDEX sso_providers_domain ON sso_providers (lower(domain));
