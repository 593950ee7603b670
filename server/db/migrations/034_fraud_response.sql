-- Issue 24: fraud response. Card charges the rules (schema/fraud-rules.ts) hold for the
-- cardholder's answer; the answer (RECOGNIZED teaches the card's profile, NOT_RECOGNIZED locks the
-- card and opens a dispute). Mirrored through the transaction doc (domain/collections.ts).

-- The merchant's country (ISO 3166-1 alpha-2) when the network says it; null otherwise.
ALTER TABLE transactions ADD COLUMN merchant_country text CHECK (merchant_country ~ '^[A-Z]{2}$');
-- null: never held. FLAGGED: waiting for the cardholder; RECOGNIZED / NOT_RECOGNIZED: answered.
ALTER TABLE transactions ADD COLUMN fraud_status text CHECK (fraud_status IN ('FLAGGED', 'RECOGNIZED', 'NOT_RECOGNIZED'));
ALTER TABLE transactions ADD COLUMN fraud_reasons text[] NOT NULL DEFAULT '{}';
-- Who answered (the cardholder, or an admin on their behalf) and when.
ALTER TABLE transactions ADD COLUMN fraud_answered_by uuid REFERENCES spend_users (id);
ALTER TABLE transactions ADD COLUMN fraud_answered_at timestamptz;
CREATE INDEX transactions_fraud_held ON transactions (business_id, user_id) WHERE fraud_status = 'FLAGGED';

-- What recognised charges taught a card beyond its history: categories and countries now known,
-- and the largest recognised amount per currency ({"GBP": 81240}).
CREATE TABLE card_fraud_profiles (
  card_id         uuid PRIMARY KEY REFERENCES cards (id),
  business_id     uuid NOT NULL REFERENCES businesses (id),
  categories      text[] NOT NULL DEFAULT '{}',
  countries       text[] NOT NULL DEFAULT '{}',
  recognized_max  jsonb NOT NULL DEFAULT '{}',
  updated_at      timestamptz NOT NULL
);

-- A disputed charge: one per transaction (the unique index is what makes a repeated or racing
-- NOT_RECOGNIZED open exactly one).
CREATE TABLE transaction_disputes (
  id              uuid PRIMARY KEY,
  business_id     uuid NOT NULL REFERENCES businesses (id),
  transaction_id  uuid NOT NULL REFERENCES transactions (id),
  card_id         uuid NOT NULL REFERENCES cards (id),
  opened_by       uuid NOT NULL REFERENCES spend_users (id),
  reason          text NOT NULL CHECK (reason IN ('NOT_RECOGNIZED')),
  status          text NOT NULL CHECK (status IN ('OPEN')),
  amount          bigint NOT NULL,
  currency        text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  created_at      timestamptz NOT NULL
);
CREATE UNIQUE INDEX transaction_disputes_one ON transaction_disputes (transaction_id);
CREATE INDEX transaction_disputes_business ON transaction_disputes (business_id, created_at DESC);
-- The transaction's dispute, on the row so the mirrored doc needs no subquery.
ALTER TABLE transactions ADD COLUMN fraud_dispute_id uuid REFERENCES transaction_disputes (id);

-- The card was locked because its holder disowned a charge (the last time; kept after an unlock
-- as the record of it).
ALTER TABLE cards ADD COLUMN fraud_locked_at timestamptz;
