-- Issue 32 (Users): the person's own settings, app preferences and profile picture, and their
-- Web Push subscriptions (the PWA's "device tokens") with the queue that delivers to them.

-- One row per person (spend user); created on first write. Names stay on spend_users (admins, SCIM
-- and HRIS own them); preferred_name is what the app calls the person.
CREATE TABLE user_profiles (
  user_id              uuid PRIMARY KEY REFERENCES spend_users (id) ON DELETE CASCADE,
  business_id          uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  preferred_name       text,
  timezone             text,
  locale               text,
  preferences          jsonb,
  preferences_version  integer,
  picture              bytea,
  picture_type         text CHECK (picture_type IN ('image/png', 'image/jpeg', 'image/webp')),
  picture_sha256       text,
  picture_width        integer,
  picture_height       integer,
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_profiles_business ON user_profiles (business_id);

-- A browser's push subscription. `token` (sha256 of the endpoint, hex) is the id the API names.
CREATE TABLE push_subscriptions (
  token         text PRIMARY KEY,
  business_id   uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  user_id       uuid NOT NULL REFERENCES spend_users (id) ON DELETE CASCADE,
  endpoint      text NOT NULL,
  p256dh        text NOT NULL,
  auth          text NOT NULL,
  user_agent    text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now(),
  refreshed_at  timestamptz NOT NULL DEFAULT now(),
  last_error    text
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (business_id, user_id);

-- One push per notification and subscription (server/core/leased-queue.ts columns).
CREATE TABLE push_deliveries (
  id              uuid PRIMARY KEY,
  business_id     uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  token           text NOT NULL,
  notification_id uuid NOT NULL,
  title           text NOT NULL,
  body            text NOT NULL DEFAULT '',
  path            text NOT NULL,
  state           text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'failed', 'dropped')),
  attempts        integer NOT NULL DEFAULT 0,
  run_after       timestamptz NOT NULL,
  leased_until    timestamptz,
  last_error      text,
  finished_at     timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (token, notification_id)
);
CREATE INDEX push_deliveries_due ON push_deliveries (run_after) WHERE state = 'queued';
