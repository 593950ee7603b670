-- Issue 30: card spend settles per charge, exactly once (server/domain/card-settlement.ts).
-- 059 settled a (business, currency, UTC day) once, taking the day's net at that moment: a charge of
-- the day that cleared afterwards was never settled. From here a settlement is a batch: every
-- CLEARED charge of a business and currency that no settlement covers yet and is three days old (or
-- all of them once the unpaid balance reaches the business's autopay threshold), netted and posted
-- once under `card-settlement:<settlement id>`, its charges recorded below in the same transaction.
-- UNIQUE (business_id, transaction_id) is what "exactly once" rests on: a charge is in one
-- settlement, whichever runner or process got there first.
CREATE TABLE card_settlement_items (
  business_id     uuid NOT NULL,
  settlement_id   uuid NOT NULL REFERENCES card_settlements (id),
  transaction_id  uuid NOT NULL REFERENCES transactions (id),
  -- The amount that moved for this charge (the charge's amount when it settled; a refund is its
  -- own negative charge, so it is an item of its own).
  amount          bigint NOT NULL,
  PRIMARY KEY (business_id, transaction_id)
);
CREATE INDEX card_settlement_items_settlement ON card_settlement_items (settlement_id);

-- A batch is no longer one per day: the day is the entry's effective date (059's rows: the charge
-- day they settled; batches: the day they ran). `cause` says why it ran: DAY (059's per-day rows),
-- AGED (charges three days old), AUTOPAY (the unpaid balance reached the threshold). The job always
-- names it; the default is for rows written the 059 way (the demo seed's days).
ALTER TABLE card_settlements DROP CONSTRAINT card_settlements_business_id_currency_day_key;
ALTER TABLE card_settlements ADD COLUMN cause text NOT NULL DEFAULT 'DAY' CHECK (cause IN ('DAY', 'AGED', 'AUTOPAY'));
CREATE INDEX card_settlements_business ON card_settlements (business_id, currency, created_at DESC);

-- 059's SETTLED days: their charges become items, so they are never settled again. Which charges a
-- day netted is known only through its recorded net and count:
--  1. the day's cleared charges now add up to what it settled (net and count): all of them;
--  2. else those unchanged since it settled (updated_at ≤ settled_at: cleared then, so netted) add
--     up to it: those; the others cleared (or were inserted) later and settle in the next batch;
--  3. else it cannot be told apart: all of them, so nothing is ever paid twice (what differs between
--     their sum and the day's net was never posted; card_settlements keeps the net that moved).
WITH days AS (
  SELECT s.id, s.business_id, s.currency, s.day, s.net, s.transactions, s.settled_at FROM card_settlements s WHERE s.status = 'SETTLED'
), charges AS (
  SELECT d.id AS settlement_id, t.business_id, t.id AS transaction_id, t.amount, (t.updated_at <= d.settled_at) AS unchanged
    FROM days d JOIN transactions t ON t.business_id = d.business_id AND t.currency = d.currency
     AND (t.occurred_at AT TIME ZONE 'UTC')::date = d.day AND t.state = 'CLEARED' AND NOT t.deleted
), sums AS (
  SELECT d.id, d.net, d.transactions,
         coalesce(sum(c.amount), 0) AS all_net, count(c.transaction_id) AS all_n,
         coalesce(sum(c.amount) FILTER (WHERE c.unchanged), 0) AS old_net, count(c.transaction_id) FILTER (WHERE c.unchanged) AS old_n
    FROM days d LEFT JOIN charges c ON c.settlement_id = d.id GROUP BY d.id, d.net, d.transactions
)
INSERT INTO card_settlement_items (business_id, settlement_id, transaction_id, amount)
SELECT c.business_id, c.settlement_id, c.transaction_id, c.amount
  FROM charges c JOIN sums s ON s.id = c.settlement_id
 WHERE (s.all_net = s.net AND s.all_n = s.transactions)
    OR (NOT (s.old_net = s.net AND s.old_n = s.transactions))
    OR c.unchanged;

-- 059's FAILED days: their charges are not settled (no items), so the next run puts them all in one
-- batch. A business and currency has at most one FAILED (open) batch, retried by every run: the
-- latest failed day's row becomes it (attempts and reason kept), the older ones go.
DELETE FROM card_settlements s WHERE s.status = 'FAILED' AND EXISTS (
  SELECT 1 FROM card_settlements o WHERE o.business_id = s.business_id AND o.currency = s.currency AND o.status = 'FAILED'
     AND (o.updated_at, o.id) > (s.updated_at, s.id));
CREATE UNIQUE INDEX card_settlements_open ON card_settlements (business_id, currency) WHERE status = 'FAILED';

-- Autopay (Ramp: once the unpaid card balance reaches the threshold it is paid at once, not three
-- days after clearing): one threshold per business, in a currency it has an OPERATING account in.
ALTER TABLE wallet_settings
  ADD COLUMN card_autopay_threshold bigint CHECK (card_autopay_threshold > 0),
  ADD COLUMN card_autopay_currency text CHECK (card_autopay_currency ~ '^[A-Z]{3}$'),
  ADD CONSTRAINT wallet_settings_card_autopay_both CHECK ((card_autopay_threshold IS NULL) = (card_autopay_currency IS NULL));
