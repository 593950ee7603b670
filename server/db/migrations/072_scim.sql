-- Issue 32: SCIM 2.0 provisioning (server/scim/, docs/design/issue-32-scim.md).

-- One bearer token per integration (Okta, Entra…). Only the token's sha256 is kept; the last four
-- characters let the admin tell tokens apart. A revoked row stays for the list's history.
CREATE TABLE scim_integrations (
  id            uuid PRIMARY KEY,
  business_id   uuid NOT NULL REFERENCES businesses (id),
  name          text NOT NULL,
  token_hash    text NOT NULL UNIQUE,
  token_last4   text NOT NULL,
  created_by    uuid NOT NULL REFERENCES spend_users (id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX scim_integrations_business ON scim_integrations (business_id, created_at);

-- What SCIM knows about a user or group beyond our own columns: the identity provider's
-- externalId and when the resource was first seen through SCIM (meta.created).
CREATE TABLE scim_resources (
  business_id    uuid NOT NULL REFERENCES businesses (id),
  resource_type  text NOT NULL CHECK (resource_type IN ('User', 'Group')),
  resource_id    uuid NOT NULL,
  external_id    text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (resource_type, resource_id)
);
CREATE INDEX scim_resources_business ON scim_resources (business_id);
