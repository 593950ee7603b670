-- Issue 32 (platform): billing subscriptions and the instance's maintenance window.

-- A business's Ledgerline products. A row is live until `ended_at`; at most one live row per
-- product (the partial unique index makes two concurrent starts end as one, the other BILLING_7002).
-- `cancel_at` set = canceled, service ends then (the end of the period already paid).
CREATE TABLE billing_subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id uuid NOT NULL REFERENCES businesses(id),
  product text NOT NULL CHECK (product IN ('PLUS', 'TRAVEL', 'PROCUREMENT', 'BILL_PAY_PLUS')),
  monthly_price bigint NOT NULL CHECK (monthly_price >= 0),
  started_at timestamptz NOT NULL,
  started_by_user_id uuid NOT NULL REFERENCES spend_users(id),
  cancel_at timestamptz,
  canceled_by_user_id uuid REFERENCES spend_users(id),
  cancel_reason text,
  cancel_feedback text,
  ended_at timestamptz
);
CREATE UNIQUE INDEX billing_subscriptions_live ON billing_subscriptions (business_id, product) WHERE ended_at IS NULL;

-- The instance-wide maintenance window: one row or none (`npm run ops:maintenance`).
CREATE TABLE platform_maintenance (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  until timestamptz NOT NULL,
  message text,
  started_at timestamptz NOT NULL DEFAULT now()
);

-- Phone numbers confirmed by a code sent by text message. One pending code per identity (a new
-- one replaces it); the code is stored hashed. A confirmation holds the number it confirmed, so
-- a number set any other way later reads as unconfirmed.
CREATE TABLE phone_verifications (
  identity_id uuid PRIMARY KEY REFERENCES identities(id) ON DELETE CASCADE,
  phone_number text NOT NULL,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE TABLE phone_confirmations (
  identity_id uuid PRIMARY KEY REFERENCES identities(id) ON DELETE CASCADE,
  phone_number text NOT NULL,
  confirmed_at timestamptz NOT NULL
);
-- Numbers that replied STOP: never texted again (6020) until they opt back in.
CREATE TABLE sms_unsubscribed (
  phone_number text PRIMARY KEY,
  unsubscribed_at timestamptz NOT NULL
);
