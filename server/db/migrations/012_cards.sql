-- Corporate cards (issue 10): the cards table becomes the card entity of schema/entities/card.ts
-- (status machine, spending limit, coding defaults, expiry, primary/favourite, reissue links),
-- card requests join the mirrored collections, and approvals also review card requests.
-- No card number is stored anywhere: the last four and a simulated network token (never sent).

ALTER TABLE cards RENAME COLUMN state TO status;
ALTER TABLE cards DROP CONSTRAINT cards_state_check;
ALTER TABLE cards ADD CONSTRAINT cards_status_check
  CHECK (status IN ('REQUESTED', 'SHIPPED', 'ACTIVE', 'LOCKED', 'SUSPENDED', 'TERMINATED'));
ALTER TABLE cards ALTER COLUMN last_four DROP NOT NULL;
ALTER TABLE cards ADD CONSTRAINT cards_numbered CHECK (last_four IS NOT NULL OR status = 'REQUESTED');

ALTER TABLE cards
  ADD COLUMN limit_amount bigint NOT NULL DEFAULT 500000 CHECK (limit_amount >= 0 AND limit_amount <= 1000000000),
  ADD COLUMN limit_currency text NOT NULL DEFAULT 'USD' CHECK (limit_currency ~ '^[A-Z]{3}$'),
  ADD COLUMN limit_interval text NOT NULL DEFAULT 'MONTHLY'
    CHECK (limit_interval IN ('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'TOTAL')),
  ADD COLUMN per_transaction_limit bigint
    CHECK (per_transaction_limit IS NULL OR (per_transaction_limit > 0 AND per_transaction_limit <= limit_amount)),
  ADD COLUMN allowed_categories text[] NOT NULL DEFAULT '{}',
  ADD COLUMN department_id uuid REFERENCES departments (id),
  ADD COLUMN location_id uuid REFERENCES locations (id),
  ADD COLUMN expires text DEFAULT to_char(now() + interval '3 years', 'YYYY-MM')
    CHECK (expires ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  ADD COLUMN is_primary boolean NOT NULL DEFAULT false,
  ADD COLUMN is_favorite boolean NOT NULL DEFAULT false,
  -- A card is reissued once: one successor per card, one predecessor per successor. The
  -- predecessor is written first (TERMINATED, pointing at its successor), hence deferred.
  ADD COLUMN replaces_id uuid UNIQUE REFERENCES cards (id),
  ADD COLUMN replaced_by_id uuid UNIQUE REFERENCES cards (id) DEFERRABLE INITIALLY DEFERRED,
  -- Who issued it (null for cards older than this migration): a repeated offline issue of the
  -- same client id by its issuer answers the stored card.
  ADD COLUMN issued_by uuid REFERENCES spend_users (id),
  ADD COLUMN created_at timestamptz NOT NULL DEFAULT now(),
  -- The network's token for the card (simulated): server-only, never in a wire document.
  ADD COLUMN network_token text DEFAULT 'tok_' || replace(gen_random_uuid()::text, '-', '');

ALTER TABLE cards ADD CONSTRAINT cards_issued CHECK (status = 'REQUESTED' OR (expires IS NOT NULL AND network_token IS NOT NULL));

-- Existing cards: the holder's coding and currency, created when last changed, and one primary
-- live card per holder (the physical one first).
UPDATE cards c
   SET created_at = c.updated_at,
       expires = to_char(c.updated_at + interval '3 years', 'YYYY-MM'),
       department_id = u.department_id,
       location_id = u.location_id,
       limit_currency = coalesce(u.payroll_currency, 'USD')
  FROM spend_users u
 WHERE u.id = c.user_id;
UPDATE cards c SET is_primary = true
  FROM (SELECT DISTINCT ON (user_id) id FROM cards
         WHERE status <> 'TERMINATED' AND NOT deleted
         ORDER BY user_id, is_physical DESC, created_at, id) p
 WHERE c.id = p.id;

-- At most one primary live card per cardholder.
CREATE UNIQUE INDEX cards_one_primary ON cards (user_id) WHERE is_primary AND status <> 'TERMINATED' AND NOT deleted;
-- The §7 list's orders: name, newest.
CREATE INDEX cards_by_name ON cards (business_id, lower(display_name) COLLATE "C", id) WHERE NOT deleted;
CREATE INDEX cards_newest ON cards (business_id, created_at DESC, id DESC) WHERE NOT deleted;
-- A card's spend in its limit interval (simulated authorizations read it under the card's lock).
DROP INDEX transactions_card;
CREATE INDEX transactions_card ON transactions (card_id, occurred_at);

CREATE TABLE card_requests (
  id                uuid PRIMARY KEY,
  business_id       uuid NOT NULL REFERENCES businesses (id),
  user_id           uuid NOT NULL REFERENCES spend_users (id),
  is_physical       boolean NOT NULL,
  amount            bigint NOT NULL CHECK (amount > 0 AND amount <= 1000000000),
  currency          text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  limit_interval    text NOT NULL CHECK (limit_interval IN ('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'TOTAL')),
  reason            text NOT NULL,
  status            text NOT NULL CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'CANCELED')),
  -- The card an approval issued: one request issues one card.
  card_id           uuid UNIQUE REFERENCES cards (id),
  rejection_reason  text,
  decided_by        uuid REFERENCES spend_users (id),
  decided_at        timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  change_seq        bigint NOT NULL,
  updated_at        timestamptz NOT NULL DEFAULT now(),
  deleted           boolean NOT NULL DEFAULT false,
  CHECK ((status = 'APPROVED') = (card_id IS NOT NULL)),
  CHECK (status <> 'REJECTED' OR rejection_reason IS NOT NULL),
  CHECK ((status IN ('APPROVED', 'REJECTED')) = (decided_by IS NOT NULL AND decided_at IS NOT NULL))
);
CREATE INDEX card_requests_feed ON card_requests (business_id, change_seq);
CREATE INDEX card_requests_list ON card_requests (business_id, created_at DESC, id DESC) WHERE NOT deleted;

-- Approvals review card requests too: object_id names a reimbursement or a card request.
ALTER TABLE approvals DROP CONSTRAINT approvals_object_type_check;
ALTER TABLE approvals ADD CONSTRAINT approvals_object_type_check CHECK (object_type IN ('reimbursement', 'card_request'));
ALTER TABLE approvals DROP CONSTRAINT approvals_object_id_fkey;
