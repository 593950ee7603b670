-- Issue 3, business administration: department/location owners and unique names, business
-- entities, the card issuing structure, user invites.

-- Owners travel with the row (few per department; always read together). A name is unique per
-- business among live rows, case-insensitively; tombstones keep theirs as history.
ALTER TABLE departments ADD COLUMN owner_ids uuid[] NOT NULL DEFAULT '{}';
ALTER TABLE locations ADD COLUMN owner_ids uuid[] NOT NULL DEFAULT '{}';
CREATE UNIQUE INDEX departments_name_key ON departments (business_id, lower(name)) WHERE NOT deleted;
CREATE UNIQUE INDEX locations_name_key ON locations (business_id, lower(name)) WHERE NOT deleted;

-- Legal entities a business issues cards and books spend under. Online-only (not mirrored).
CREATE TABLE business_entities (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  name         text NOT NULL,
  country      text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  currency     text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted      boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX business_entities_name_key ON business_entities (business_id, lower(name)) WHERE NOT deleted;

-- SINGLE: one issuing program for the business; PER_ENTITY: cards are issued per business
-- entity, so every invited user must name one.
ALTER TABLE businesses ADD COLUMN card_issuing_structure text NOT NULL DEFAULT 'SINGLE'
  CHECK (card_issuing_structure IN ('SINGLE', 'PER_ENTITY'));
ALTER TABLE spend_users ADD COLUMN entity_id uuid REFERENCES business_entities (id);

-- One row per invite sent; only a hash of the token is kept. A resend revokes the previous row.
CREATE TABLE user_invites (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  user_id      uuid NOT NULL REFERENCES spend_users (id),
  token_hash   text NOT NULL UNIQUE,
  invited_by   uuid REFERENCES spend_users (id),
  expires_at   timestamptz NOT NULL,
  accepted_at  timestamptz,
  revoked_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_invites_user ON user_invites (user_id);
CREATE INDEX user_invites_open ON user_invites (expires_at) WHERE accepted_at IS NULL AND revoked_at IS NULL;

-- Feature-flag overrides per business. The identity migration (003) creates this table; the
-- guard keeps this migration correct on its own with exactly the same shape.
CREATE TABLE IF NOT EXISTS business_feature_flags (
  business_id  uuid PRIMARY KEY REFERENCES businesses (id),
  overrides    jsonb NOT NULL DEFAULT '{}',
  updated_at   timestamptz NOT NULL DEFAULT now()
);
