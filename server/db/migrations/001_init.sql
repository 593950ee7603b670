-- Ledgerline provider API: initial schema.
--
-- Every mirrored row (spend_users, departments, locations, gl_accounts, tracking_categories,
-- cards, transactions) carries change_seq: the value of its business's counter
-- (businesses.change_seq) at the write that last touched it. Sequences are unique per business
-- across all mirrored tables, so the change feed pages on change_seq alone.
-- Rows are never hard-deleted: deleted=true is a tombstone that the feed still carries.

CREATE TABLE businesses (
  id          uuid PRIMARY KEY,
  name        text NOT NULL,
  currency    text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  status      text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'INACTIVE', 'LOCKED')),
  change_seq  bigint NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE identities (
  id             uuid PRIMARY KEY,
  email          text NOT NULL,
  password_hash  text NOT NULL,
  ofac_status    text,
  created_at     timestamptz NOT NULL DEFAULT now()
);
-- Emails are matched case-insensitively; lower() keeps it portable (no citext extension in PGlite).
CREATE UNIQUE INDEX identities_email_key ON identities (lower(email));

CREATE TABLE departments (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  name         text NOT NULL,
  change_seq   bigint NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted      boolean NOT NULL DEFAULT false
);
CREATE INDEX departments_feed ON departments (business_id, change_seq);

CREATE TABLE locations (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  name         text NOT NULL,
  change_seq   bigint NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted      boolean NOT NULL DEFAULT false
);
CREATE INDEX locations_feed ON locations (business_id, change_seq);

CREATE TABLE gl_accounts (
  id              uuid PRIMARY KEY,
  business_id     uuid NOT NULL REFERENCES businesses (id),
  code            text NOT NULL,
  name            text NOT NULL,
  classification  text NOT NULL CHECK (classification IN ('EXPENSE', 'ASSET', 'LIABILITY', 'EQUITY', 'REVENUE')),
  active          boolean NOT NULL DEFAULT true,
  change_seq      bigint NOT NULL,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  deleted         boolean NOT NULL DEFAULT false
);
CREATE INDEX gl_accounts_feed ON gl_accounts (business_id, change_seq);

-- Options travel inline ([{id, name}]): they are few and always read with their category.
CREATE TABLE tracking_categories (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  name         text NOT NULL,
  options      jsonb NOT NULL DEFAULT '[]',
  change_seq   bigint NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted      boolean NOT NULL DEFAULT false
);
CREATE INDEX tracking_categories_feed ON tracking_categories (business_id, change_seq);

CREATE TABLE spend_users (
  id                                 uuid PRIMARY KEY,
  business_id                        uuid NOT NULL REFERENCES businesses (id),
  identity_id                        uuid NOT NULL REFERENCES identities (id),
  role                               text NOT NULL,
  external_firm                      jsonb,
  has_finished_onboarding            boolean NOT NULL DEFAULT true,
  is_business_locked                 boolean NOT NULL DEFAULT false,
  is_manager                         boolean NOT NULL DEFAULT false,
  user_permissions                   jsonb NOT NULL DEFAULT '[]',
  payroll_currency                   text,
  has_accepted_cardholder_agreement  boolean NOT NULL DEFAULT true,
  first_name                         text NOT NULL,
  last_name                          text NOT NULL,
  external_firm_role                 text,
  email                              text NOT NULL,
  manager_id                         uuid REFERENCES spend_users (id),
  department_id                      uuid REFERENCES departments (id),
  location_id                        uuid REFERENCES locations (id),
  status                             text NOT NULL DEFAULT 'ACTIVE',
  change_seq                         bigint NOT NULL,
  updated_at                         timestamptz NOT NULL DEFAULT now(),
  deleted                            boolean NOT NULL DEFAULT false,
  UNIQUE (identity_id, business_id)
);
CREATE INDEX spend_users_feed ON spend_users (business_id, change_seq);
CREATE INDEX spend_users_manager ON spend_users (manager_id);

CREATE TABLE cards (
  id            uuid PRIMARY KEY,
  business_id   uuid NOT NULL REFERENCES businesses (id),
  user_id       uuid NOT NULL REFERENCES spend_users (id),
  display_name  text NOT NULL,
  last_four     text NOT NULL CHECK (last_four ~ '^[0-9]{4}$'),
  is_physical   boolean NOT NULL DEFAULT false,
  state         text NOT NULL DEFAULT 'ACTIVE' CHECK (state IN ('ACTIVE', 'LOCKED', 'TERMINATED')),
  change_seq    bigint NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  deleted       boolean NOT NULL DEFAULT false
);
CREATE INDEX cards_feed ON cards (business_id, change_seq);
CREATE INDEX cards_user ON cards (business_id, user_id);

CREATE TABLE transactions (
  id                 uuid PRIMARY KEY,
  business_id        uuid NOT NULL REFERENCES businesses (id),
  card_id            uuid NOT NULL REFERENCES cards (id),
  user_id            uuid NOT NULL REFERENCES spend_users (id),
  merchant_name      text NOT NULL,
  merchant_category  text NOT NULL DEFAULT '',
  amount             bigint NOT NULL,
  currency           text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  occurred_at        timestamptz NOT NULL,
  state              text NOT NULL CHECK (state IN ('PENDING', 'CLEARED', 'DECLINED', 'REVERSED')),
  memo               text,
  gl_account_id      uuid REFERENCES gl_accounts (id),
  department_id      uuid REFERENCES departments (id),
  location_id        uuid REFERENCES locations (id),
  tracking           jsonb NOT NULL DEFAULT '{}',
  -- Lower-cased text of everything a search matches (merchant, memo, cardholder, coding names);
  -- kept current by the triggers below, whoever writes the row.
  search_text        text NOT NULL DEFAULT '',
  change_seq         bigint NOT NULL,
  updated_at         timestamptz NOT NULL DEFAULT now(),
  deleted            boolean NOT NULL DEFAULT false
);
CREATE INDEX transactions_feed ON transactions (business_id, change_seq);
CREATE INDEX transactions_newest ON transactions (business_id, occurred_at DESC, id DESC);
CREATE INDEX transactions_user ON transactions (business_id, user_id, occurred_at DESC, id DESC);
CREATE INDEX transactions_card ON transactions (card_id);

CREATE TABLE sessions (
  id           uuid PRIMARY KEY,
  identity_id  uuid NOT NULL REFERENCES identities (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz
);
CREATE INDEX sessions_identity ON sessions (identity_id);

-- One row per (scope, key). state 'in_flight' while the first request runs; 'done' once its
-- answer is stored, in the same transaction as the write it answers.
CREATE TABLE idempotency_keys (
  scope          text NOT NULL,
  key            text NOT NULL,
  request_hash   text NOT NULL,
  state          text NOT NULL CHECK (state IN ('in_flight', 'done')),
  status         integer,
  response_body  text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  locked_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

-- Secrets every API process must share (the token signing key when TOKEN_SECRET is not set).
CREATE TABLE server_keys (
  name        text PRIMARY KEY,
  secret      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- ---------------------------------------------------------------------------------------------
-- Wire formatting: ISO 8601 UTC with milliseconds, the same text from PGlite and PostgreSQL.
CREATE FUNCTION ll_iso(ts timestamptz) RETURNS text LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- ---------------------------------------------------------------------------------------------
-- Search text maintenance.

CREATE FUNCTION ll_transaction_search_text(
  p_merchant text, p_memo text, p_user uuid, p_gl uuid, p_department uuid, p_location uuid, p_tracking jsonb
) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT lower(concat_ws(' ',
    p_merchant,
    p_memo,
    (SELECT u.first_name || ' ' || u.last_name FROM spend_users u WHERE u.id = p_user),
    (SELECT g.code || ' ' || g.name FROM gl_accounts g WHERE g.id = p_gl),
    (SELECT d.name FROM departments d WHERE d.id = p_department),
    (SELECT l.name FROM locations l WHERE l.id = p_location),
    (SELECT string_agg(c.name || ' ' || coalesce(o.value ->> 'name', ''), ' ')
       FROM jsonb_each_text(p_tracking) AS tr(category_id, option_id)
       JOIN tracking_categories c ON c.id::text = tr.category_id
       LEFT JOIN LATERAL jsonb_array_elements(c.options) AS o(value) ON o.value ->> 'id' = tr.option_id
      WHERE o.value IS NOT NULL)
  ))
$$;

CREATE FUNCTION ll_transactions_search_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := ll_transaction_search_text(NEW.merchant_name, NEW.memo, NEW.user_id,
    NEW.gl_account_id, NEW.department_id, NEW.location_id, NEW.tracking);
  RETURN NEW;
END
$$;

CREATE TRIGGER transactions_search_text
  BEFORE INSERT OR UPDATE OF merchant_name, memo, user_id, gl_account_id, department_id, location_id, tracking
  ON transactions FOR EACH ROW EXECUTE FUNCTION ll_transactions_search_trigger();

-- A renamed reference re-derives the search text of the transactions that point at it.
CREATE FUNCTION ll_refresh_search_text_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE transactions t
     SET search_text = ll_transaction_search_text(t.merchant_name, t.memo, t.user_id,
           t.gl_account_id, t.department_id, t.location_id, t.tracking)
   WHERE t.business_id = NEW.business_id
     AND CASE TG_TABLE_NAME
           WHEN 'spend_users' THEN t.user_id = NEW.id
           WHEN 'gl_accounts' THEN t.gl_account_id = NEW.id
           WHEN 'departments' THEN t.department_id = NEW.id
           WHEN 'locations' THEN t.location_id = NEW.id
           ELSE t.tracking ? NEW.id::text
         END;
  RETURN NULL;
END
$$;

CREATE TRIGGER spend_users_search_text AFTER UPDATE OF first_name, last_name ON spend_users
  FOR EACH ROW WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name)
  EXECUTE FUNCTION ll_refresh_search_text_trigger();
CREATE TRIGGER gl_accounts_search_text AFTER UPDATE OF code, name ON gl_accounts
  FOR EACH ROW WHEN (OLD.code IS DISTINCT FROM NEW.code OR OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION ll_refresh_search_text_trigger();
CREATE TRIGGER departments_search_text AFTER UPDATE OF name ON departments
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION ll_refresh_search_text_trigger();
CREATE TRIGGER locations_search_text AFTER UPDATE OF name ON locations
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION ll_refresh_search_text_trigger();
CREATE TRIGGER tracking_categories_search_text AFTER UPDATE OF name, options ON tracking_categories
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.options IS DISTINCT FROM NEW.options)
  EXECUTE FUNCTION ll_refresh_search_text_trigger();
