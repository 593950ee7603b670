-- Issue 30: card spend settles with the card network through the ledger. Once a day D is three
-- days old, the net of that day's CLEARED card transactions (per business and currency; refunds,
-- negative amounts, net in) moves OPERATING → CARD_NETWORK (a negative net moves back), posted
-- with key `card-settlement:<currency>:<D>` (server/domain/card-settlement.ts). One row per
-- (business, currency, day): SETTLED once posted (never again), or FAILED while the primary
-- operating account cannot cover it (retried by the next run; `attempts`, `failure_reason`).
CREATE TABLE card_settlements (
  id              uuid PRIMARY KEY,
  business_id     uuid NOT NULL REFERENCES businesses (id),
  currency        text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  day             date NOT NULL,
  net             bigint NOT NULL,
  transactions    integer NOT NULL CHECK (transactions >= 0),
  status          text NOT NULL CHECK (status IN ('SETTLED', 'FAILED')),
  attempts        integer NOT NULL DEFAULT 1 CHECK (attempts >= 1),
  failure_reason  text CHECK ((status = 'FAILED') = (failure_reason IS NOT NULL)),
  entry_id        uuid,
  settled_at      timestamptz CHECK ((status = 'SETTLED') = (settled_at IS NOT NULL)),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, currency, day),
  FOREIGN KEY (business_id, entry_id) REFERENCES journal_entries (business_id, id)
);
CREATE INDEX card_settlements_failed ON card_settlements (business_id, day) WHERE status = 'FAILED';
-- The job's candidates: cleared card spend by business, currency and day.
CREATE INDEX transactions_cleared_day ON transactions (business_id, currency, ((occurred_at AT TIME ZONE 'UTC')::date)) WHERE state = 'CLEARED' AND NOT deleted;
