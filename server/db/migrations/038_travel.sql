-- Issue 27, travel: trips (a mirrored collection), their spend links, offers from the generated
-- inventory, bookings (charged once to the trip's virtual card), the business's travel policy and
-- settings, and each traveller's profile (sensitive fields encrypted by the server before they
-- reach this table).

CREATE TABLE trips (
  id                uuid PRIMARY KEY,
  business_id       uuid NOT NULL REFERENCES businesses (id),
  user_id           uuid NOT NULL REFERENCES spend_users (id),
  name              text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  destination       text NOT NULL CHECK (destination ~ '^[A-Z]{3}$'),
  destination_name  text NOT NULL,
  start_date        date NOT NULL,
  end_date          date NOT NULL,
  purpose           text,
  status            text NOT NULL CHECK (status IN ('PLANNED', 'BOOKED', 'IN_PROGRESS', 'COMPLETED', 'CANCELED')),
  budget_amount     bigint CHECK (budget_amount IS NULL OR budget_amount > 0),
  budget_currency   text CHECK (budget_currency ~ '^[A-Z]{3}$'),
  -- The trip's virtual card, issued at its first booking (one card per trip).
  card_id           uuid UNIQUE REFERENCES cards (id),
  canceled_at       timestamptz,
  -- Who created it (offline create: a repeat with the creator's client id answers the stored trip).
  created_by        uuid NOT NULL REFERENCES spend_users (id),
  created_at        timestamptz NOT NULL DEFAULT now(),
  change_seq        bigint NOT NULL,
  updated_at        timestamptz NOT NULL DEFAULT now(),
  deleted           boolean NOT NULL DEFAULT false,
  CHECK (end_date >= start_date),
  CHECK ((budget_amount IS NULL) = (budget_currency IS NULL)),
  CHECK ((status = 'CANCELED') = (canceled_at IS NOT NULL))
);
CREATE INDEX trips_feed ON trips (business_id, change_seq);
CREATE INDEX trips_list ON trips (business_id, start_date DESC, id DESC) WHERE NOT deleted;
CREATE INDEX trips_user ON trips (business_id, user_id) WHERE NOT deleted;

-- A card transaction or a claim belongs to at most one trip.
CREATE TABLE trip_spend_events (
  business_id  uuid NOT NULL REFERENCES businesses (id),
  trip_id      uuid NOT NULL REFERENCES trips (id),
  object_type  text NOT NULL CHECK (object_type IN ('transaction', 'reimbursement')),
  object_id    uuid NOT NULL,
  linked_by    uuid NOT NULL REFERENCES spend_users (id),
  linked_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, object_type, object_id)
);
CREATE INDEX trip_spend_events_trip ON trip_spend_events (trip_id);

-- A search's offers, kept until they expire (30 minutes) so a booking can name one.
CREATE TABLE travel_offers (
  id            uuid PRIMARY KEY,
  business_id   uuid NOT NULL REFERENCES businesses (id),
  -- Who searched: only they (or an admin) may book it.
  user_id       uuid NOT NULL REFERENCES spend_users (id),
  kind          text NOT NULL CHECK (kind IN ('FLIGHT', 'HOTEL')),
  price_amount  bigint NOT NULL CHECK (price_amount > 0),
  currency      text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  in_policy     boolean NOT NULL,
  policy_reasons jsonb NOT NULL DEFAULT '[]',
  blocked       boolean NOT NULL DEFAULT false,
  -- The offer as answered (segments or hotel stay), stored whole.
  payload       jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL
);
CREATE INDEX travel_offers_expiry ON travel_offers (expires_at);

CREATE TABLE travel_bookings (
  id                     uuid PRIMARY KEY,
  business_id            uuid NOT NULL REFERENCES businesses (id),
  trip_id                uuid NOT NULL REFERENCES trips (id),
  offer_id               uuid NOT NULL REFERENCES travel_offers (id),
  kind                   text NOT NULL CHECK (kind IN ('FLIGHT', 'HOTEL')),
  status                 text NOT NULL CHECK (status IN ('PENDING_APPROVAL', 'BOOKED', 'REJECTED', 'CANCELED')),
  price_amount           bigint NOT NULL CHECK (price_amount > 0),
  currency               text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  in_policy              boolean NOT NULL,
  policy_reasons         jsonb NOT NULL DEFAULT '[]',
  payload                jsonb NOT NULL,
  confirmation_code      text UNIQUE CHECK (confirmation_code ~ '^[A-Z0-9]{6}$'),
  card_id                uuid REFERENCES cards (id),
  -- The charge and its refund: one each at most.
  transaction_id         uuid UNIQUE,
  refund_transaction_id  uuid UNIQUE,
  approval_id            uuid UNIQUE,
  rejection_reason       text,
  requested_by           uuid NOT NULL REFERENCES spend_users (id),
  booked_at              timestamptz,
  canceled_at            timestamptz,
  created_at             timestamptz NOT NULL DEFAULT now(),
  -- BOOKED always has its code, card and charge (nothing booked without its charge); a charge
  -- exists only on a booking that was BOOKED.
  CHECK (status <> 'BOOKED' OR (confirmation_code IS NOT NULL AND card_id IS NOT NULL AND transaction_id IS NOT NULL AND booked_at IS NOT NULL)),
  CHECK (refund_transaction_id IS NULL OR (status = 'CANCELED' AND transaction_id IS NOT NULL)),
  CHECK (status <> 'REJECTED' OR rejection_reason IS NOT NULL)
);
-- Two devices booking the same offer for the same trip: one live booking.
CREATE UNIQUE INDEX travel_bookings_live_offer ON travel_bookings (trip_id, offer_id) WHERE status IN ('PENDING_APPROVAL', 'BOOKED');
CREATE INDEX travel_bookings_trip ON travel_bookings (trip_id);

CREATE TABLE travel_policies (
  business_id  uuid PRIMARY KEY REFERENCES businesses (id),
  policy       jsonb NOT NULL,
  updated_by   uuid REFERENCES spend_users (id),
  updated_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE travel_settings (
  business_id  uuid PRIMARY KEY REFERENCES businesses (id),
  settings     jsonb NOT NULL,
  updated_by   uuid REFERENCES spend_users (id),
  updated_at   timestamptz NOT NULL DEFAULT now()
);

-- One profile per traveller. `secret` is the encrypted JSON of the sensitive fields (date of
-- birth, known traveller number, loyalty numbers); the masked forms are stored beside it for reads.
CREATE TABLE traveler_profiles (
  user_id            uuid PRIMARY KEY REFERENCES spend_users (id),
  business_id        uuid NOT NULL REFERENCES businesses (id),
  legal_first_name   text NOT NULL,
  legal_middle_name  text,
  legal_last_name    text NOT NULL,
  seat_preference    text NOT NULL CHECK (seat_preference IN ('WINDOW', 'AISLE', 'NO_PREFERENCE')),
  secret             text NOT NULL,
  masked             jsonb NOT NULL,
  updated_at         timestamptz NOT NULL DEFAULT now()
);
