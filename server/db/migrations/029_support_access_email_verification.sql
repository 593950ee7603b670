-- Issue 24 items 1 and 2: support access by the business's grant, and email verification at sign-up.

-- A business's grant of support access: an owner or admin turns it on for a period (at most 14
-- days, checked by the call), read-only unless allow_writes. Live = not revoked and not expired.
-- A new grant ends the live one (revoked_at), so a business has at most one live grant; rows are
-- kept as history (who granted, who revoked).
CREATE TABLE support_access_grants (
  id                  uuid PRIMARY KEY,
  business_id         uuid NOT NULL REFERENCES businesses (id),
  granted_by_user_id  uuid NOT NULL REFERENCES spend_users (id),
  allow_writes        boolean NOT NULL DEFAULT false,
  created_at          timestamptz NOT NULL DEFAULT now(),
  expires_at          timestamptz NOT NULL,
  revoked_at          timestamptz,
  revoked_by_user_id  uuid REFERENCES spend_users (id),
  CHECK (expires_at > created_at)
);
CREATE INDEX support_access_grants_business ON support_access_grants (business_id, created_at DESC);

-- An impersonation session names the grant it was opened under: every request of its tokens
-- checks that grant (one join on the session row authentication reads anyway), so a revoked or
-- expired grant stops them at once.
ALTER TABLE sessions ADD COLUMN support_grant_id uuid REFERENCES support_access_grants (id);

-- When the identity proved it reads its mailbox. Every identity that exists came from the seed or
-- an invite and counts as verified; new rows are verified unless the path that creates them says
-- otherwise (self sign-up and invites insert NULL; invite acceptance, a passwordless link and an
-- SSO sign-in set it).
ALTER TABLE identities ADD COLUMN email_verified_at timestamptz DEFAULT now();
UPDATE identities SET email_verified_at = created_at;

-- Emailed codes now have a purpose: the step-up / enrolment code and the sign-up verification
-- code never stand in for each other, and a new one of a purpose replaces only that purpose's.
ALTER TABLE email_otps ADD COLUMN purpose text NOT NULL DEFAULT 'step-up' CHECK (purpose IN ('step-up', 'verify-email'));
DROP INDEX email_otps_identity;
CREATE INDEX email_otps_identity ON email_otps (identity_id, purpose, created_at DESC);

-- What a write did, when the call says more than its path (a support access grant's period and
-- whether it allows changes). NULL for every other row.
ALTER TABLE audit_log ADD COLUMN detail jsonb;
