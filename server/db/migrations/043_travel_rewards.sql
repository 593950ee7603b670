-- Issue 27, travel rewards (schema/travel-rewards.ts): a traveller who books in policy below the
-- policy's cap earns a share of the savings. One reward per booking at most (the unique index is
-- the last word under racing approvals or retries); a canceled booking's reward is VOIDED, never
-- deleted, so the balance's history stays. Not mirrored: read online.
CREATE TABLE travel_rewards (
  id             uuid PRIMARY KEY,
  business_id    uuid NOT NULL REFERENCES businesses (id),
  user_id        uuid NOT NULL REFERENCES spend_users (id),
  trip_id        uuid NOT NULL REFERENCES trips (id),
  booking_id     uuid NOT NULL REFERENCES travel_bookings (id),
  amount         bigint NOT NULL CHECK (amount > 0),
  currency       text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  cap_amount     bigint NOT NULL CHECK (cap_amount > 0),
  price_amount   bigint NOT NULL CHECK (price_amount > 0 AND price_amount < cap_amount),
  share_percent  integer NOT NULL CHECK (share_percent BETWEEN 1 AND 100),
  status         text NOT NULL DEFAULT 'EARNED' CHECK (status IN ('EARNED', 'VOIDED')),
  earned_at      timestamptz NOT NULL,
  voided_at      timestamptz,
  void_reason    text,
  voided_by      uuid REFERENCES spend_users (id),
  CHECK ((status = 'VOIDED') = (voided_at IS NOT NULL)),
  CHECK (status <> 'VOIDED' OR void_reason IS NOT NULL)
);
CREATE UNIQUE INDEX travel_rewards_one_per_booking ON travel_rewards (booking_id);
-- The list (a traveller's, newest first) and the balance (their EARNED rows per currency).
CREATE INDEX travel_rewards_user ON travel_rewards (business_id, user_id, earned_at DESC, id DESC);
