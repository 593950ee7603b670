-- Issue 28, procurement: spend requests (a mirrored collection), spend intents, spend
-- allocations (budgets, reference data), purchase orders with their lines and item receipts
-- (reference data), documents on requests and receipts, the business's three-way match
-- tolerances, and what ties them to cards and bills. Approvals also review spend requests.

ALTER TABLE approvals DROP CONSTRAINT approvals_object_type_check;
ALTER TABLE approvals ADD CONSTRAINT approvals_object_type_check
  CHECK (object_type IN ('reimbursement', 'card_request', 'bill', 'travel_booking', 'spend_request'));

CREATE TABLE spend_allocations (
  id              uuid PRIMARY KEY,
  business_id     uuid NOT NULL REFERENCES businesses (id),
  name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  description     text,
  owner_id        uuid NOT NULL REFERENCES spend_users (id),
  member_ids      uuid[] NOT NULL DEFAULT '{}',
  limit_amount    bigint NOT NULL CHECK (limit_amount >= 0 AND limit_amount <= 1000000000),
  limit_currency  text NOT NULL CHECK (limit_currency ~ '^[A-Z]{3}$'),
  limit_interval  text NOT NULL CHECK (limit_interval IN ('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'TOTAL')),
  end_date        date,
  archived        boolean NOT NULL DEFAULT false,
  created_by      uuid NOT NULL REFERENCES spend_users (id),
  created_at      timestamptz NOT NULL DEFAULT now(),
  change_seq      bigint NOT NULL,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  deleted         boolean NOT NULL DEFAULT false
);
CREATE INDEX spend_allocations_feed ON spend_allocations (business_id, change_seq);

CREATE TABLE spend_requests (
  id                   uuid PRIMARY KEY,
  business_id          uuid NOT NULL REFERENCES businesses (id),
  user_id              uuid NOT NULL REFERENCES spend_users (id),
  requested_by         uuid NOT NULL REFERENCES spend_users (id),
  type                 text NOT NULL CHECK (type IN ('GENERAL_EXPENSE', 'PRODUCT_OR_SERVICE', 'PHYSICAL_CARD')),
  status               text NOT NULL CHECK (status IN ('DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'FULFILLED', 'REJECTED', 'CANCELED')),
  amount               bigint NOT NULL CHECK (amount > 0 AND amount <= 1000000000),
  currency             text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  limit_interval       text NOT NULL DEFAULT 'TOTAL' CHECK (limit_interval IN ('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'TOTAL')),
  description          text NOT NULL CHECK (length(description) BETWEEN 1 AND 2000),
  vendor_id            uuid REFERENCES vendors (id),
  -- [{id, description, quantity, unit_price}], in order (PRODUCT_OR_SERVICE).
  line_items           jsonb NOT NULL DEFAULT '[]',
  needed_by            date,
  spend_allocation_id  uuid REFERENCES spend_allocations (id),
  document_ids         uuid[] NOT NULL DEFAULT '{}',
  approval_id          uuid,
  rejection_reason     text,
  -- What came of it, written in the approving transaction: one card or one PO per request.
  card_id              uuid UNIQUE REFERENCES cards (id),
  purchase_order_id    uuid UNIQUE,
  submitted_at         timestamptz,
  decided_at           timestamptz,
  fulfilled_at         timestamptz,
  canceled_at          timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now(),
  change_seq           bigint NOT NULL,
  updated_at           timestamptz NOT NULL DEFAULT now(),
  deleted              boolean NOT NULL DEFAULT false,
  CHECK (spend_allocation_id IS NULL OR type = 'GENERAL_EXPENSE'),
  CHECK ((status = 'FULFILLED') = (fulfilled_at IS NOT NULL)),
  CHECK ((status = 'CANCELED') = (canceled_at IS NOT NULL))
);
CREATE INDEX spend_requests_feed ON spend_requests (business_id, change_seq);
CREATE INDEX spend_requests_list ON spend_requests (business_id, created_at DESC, id DESC) WHERE NOT deleted;
CREATE INDEX spend_requests_user ON spend_requests (business_id, user_id) WHERE NOT deleted;

-- Cards that came of a request, and cards drawing on a budget.
ALTER TABLE cards
  ADD COLUMN spend_request_id uuid UNIQUE REFERENCES spend_requests (id),
  ADD COLUMN spend_allocation_id uuid REFERENCES spend_allocations (id);
CREATE INDEX cards_allocation ON cards (spend_allocation_id) WHERE spend_allocation_id IS NOT NULL;

CREATE TABLE spend_intents (
  id                uuid PRIMARY KEY,
  business_id       uuid NOT NULL REFERENCES businesses (id),
  card_id           uuid NOT NULL REFERENCES cards (id),
  user_id           uuid NOT NULL REFERENCES spend_users (id),
  amount            bigint NOT NULL CHECK (amount > 0),
  currency          text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  merchant_category text NOT NULL,
  description       text,
  status            text NOT NULL CHECK (status IN ('ACTIVE', 'USED', 'CANCELED')),
  -- The authorization that used it (once).
  transaction_id    uuid UNIQUE,
  expires_at        timestamptz NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX spend_intents_card ON spend_intents (card_id, status);

-- Per-business PO numbers: PO-000001, PO-000002, … (no gaps from concurrent creates: the counter
-- row is locked by the approving transaction).
CREATE TABLE purchase_order_counters (
  business_id uuid PRIMARY KEY REFERENCES businesses (id),
  last_number bigint NOT NULL
);

CREATE TABLE purchase_orders (
  id                uuid PRIMARY KEY,
  business_id       uuid NOT NULL REFERENCES businesses (id),
  po_number         text NOT NULL CHECK (po_number ~ '^PO-[0-9]{6,}$'),
  spend_request_id  uuid NOT NULL UNIQUE REFERENCES spend_requests (id),
  vendor_id         uuid NOT NULL REFERENCES vendors (id),
  currency          text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  status            text NOT NULL CHECK (status IN ('OPEN', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CLOSED')),
  created_by        uuid NOT NULL REFERENCES spend_users (id),
  closed_at         timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  change_seq        bigint NOT NULL,
  updated_at        timestamptz NOT NULL DEFAULT now(),
  deleted           boolean NOT NULL DEFAULT false,
  UNIQUE (business_id, po_number),
  CHECK ((status = 'CLOSED') = (closed_at IS NOT NULL))
);
CREATE INDEX purchase_orders_feed ON purchase_orders (business_id, change_seq);
ALTER TABLE spend_requests ADD CONSTRAINT spend_requests_purchase_order_fk
  FOREIGN KEY (purchase_order_id) REFERENCES purchase_orders (id) DEFERRABLE INITIALLY DEFERRED;

CREATE TABLE purchase_order_lines (
  id                 uuid PRIMARY KEY,
  purchase_order_id  uuid NOT NULL REFERENCES purchase_orders (id),
  position           integer NOT NULL,
  description        text NOT NULL,
  quantity           bigint NOT NULL CHECK (quantity > 0),
  unit_price         bigint NOT NULL CHECK (unit_price >= 0),
  -- Kept equal to the live receipts' sum by the server, and never past what was ordered.
  received_quantity  bigint NOT NULL DEFAULT 0 CHECK (received_quantity >= 0 AND received_quantity <= quantity),
  UNIQUE (purchase_order_id, position)
);

CREATE TABLE item_receipts (
  id                 uuid PRIMARY KEY,
  business_id        uuid NOT NULL REFERENCES businesses (id),
  purchase_order_id  uuid NOT NULL REFERENCES purchase_orders (id),
  received_at        timestamptz NOT NULL,
  received_by        uuid NOT NULL REFERENCES spend_users (id),
  document_ids       uuid[] NOT NULL DEFAULT '{}',
  created_at         timestamptz NOT NULL DEFAULT now(),
  deleted            boolean NOT NULL DEFAULT false
);
CREATE INDEX item_receipts_po ON item_receipts (purchase_order_id) WHERE NOT deleted;

CREATE TABLE item_receipt_lines (
  item_receipt_id  uuid NOT NULL REFERENCES item_receipts (id),
  po_line_id       uuid NOT NULL REFERENCES purchase_order_lines (id),
  quantity         bigint NOT NULL CHECK (quantity > 0),
  PRIMARY KEY (item_receipt_id, po_line_id)
);

-- Files attached to a spend request or an item receipt (quotes, packing slips), stored by content.
CREATE TABLE procurement_documents (
  id            uuid PRIMARY KEY,
  business_id   uuid NOT NULL REFERENCES businesses (id),
  owner_type    text NOT NULL CHECK (owner_type IN ('spend_request', 'item_receipt')),
  owner_id      uuid NOT NULL,
  content_type  text NOT NULL,
  size          integer NOT NULL CHECK (size > 0),
  sha256        text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  bytes         bytea NOT NULL,
  uploaded_by   uuid NOT NULL REFERENCES spend_users (id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  deleted       boolean NOT NULL DEFAULT false
);
CREATE INDEX procurement_documents_owner ON procurement_documents (owner_type, owner_id) WHERE NOT deleted;

-- The business's three-way match tolerances (absent = price ±2 %, quantity exact).
CREATE TABLE match_tolerances (
  business_id                 uuid PRIMARY KEY REFERENCES businesses (id),
  price_tolerance_percent     numeric NOT NULL CHECK (price_tolerance_percent BETWEEN 0 AND 100),
  quantity_tolerance_percent  numeric NOT NULL CHECK (quantity_tolerance_percent BETWEEN 0 AND 100)
);

-- Bills that name their PO: per line the PO line; the match's outcome stored on the bill.
ALTER TABLE bills
  ADD COLUMN purchase_order_id uuid REFERENCES purchase_orders (id),
  -- schema/bill-match.ts poMatchSchema, or null when the bill names no PO.
  ADD COLUMN po_match jsonb;
CREATE INDEX bills_purchase_order ON bills (purchase_order_id) WHERE purchase_order_id IS NOT NULL;
-- A line billed against a PO line says how many units at what unit price (amount = quantity × unit_price).
ALTER TABLE bill_line_items
  ADD COLUMN po_line_id uuid REFERENCES purchase_order_lines (id),
  ADD COLUMN quantity bigint CHECK (quantity IS NULL OR quantity > 0),
  ADD COLUMN unit_price bigint CHECK (unit_price IS NULL OR unit_price >= 0),
  ADD CONSTRAINT bill_line_items_po_units CHECK (po_line_id IS NULL OR (quantity IS NOT NULL AND unit_price IS NOT NULL));
CREATE INDEX bill_line_items_po_line ON bill_line_items (po_line_id) WHERE po_line_id IS NOT NULL;
