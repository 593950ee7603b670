-- Issue 32 (helper BIZ): business settings kept by type (schema/business-settings.ts). Each row
-- records who set it last; no row is the default.

-- The security contact: told about security changes, besides the admins.
CREATE TABLE business_security_contacts (
  business_id  uuid PRIMARY KEY REFERENCES businesses (id),
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  email        text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  phone        text,
  updated_by   uuid NOT NULL REFERENCES spend_users (id),
  updated_at   timestamptz NOT NULL
);

-- Beta programmes a business joined; their flags are on while the row exists (server/auth/settings.ts).
CREATE TABLE business_beta_enrollments (
  business_id  uuid NOT NULL REFERENCES businesses (id),
  programme    text NOT NULL,
  enrolled_by  uuid NOT NULL REFERENCES spend_users (id),
  enrolled_at  timestamptz NOT NULL,
  PRIMARY KEY (business_id, programme)
);

-- Card branding: a colour and a logo (PNG/JPEG, checked by signature and size before it is stored).
CREATE TABLE business_card_branding (
  business_id        uuid PRIMARY KEY REFERENCES businesses (id),
  color              text CHECK (color ~ '^#[0-9a-f]{6}$'),
  logo_content_type  text CHECK (logo_content_type IN ('image/png', 'image/jpeg')),
  logo_width         int,
  logo_height        int,
  logo_sha256        text,
  logo_bytes         bytea,
  updated_by         uuid NOT NULL REFERENCES spend_users (id),
  updated_at         timestamptz NOT NULL,
  CHECK ((logo_bytes IS NULL) = (logo_content_type IS NULL)),
  CHECK (color IS NOT NULL OR logo_bytes IS NOT NULL)
);
