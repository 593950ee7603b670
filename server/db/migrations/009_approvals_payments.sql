-- Reimbursement review and payment (issue 9): approvals, a mirrored collection ('approvals',
-- written through writeMirrored like every mirrored table), and ledger_entries, the simulated
-- money movement of a payment (server-only, never mirrored).

CREATE TABLE approvals (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  object_type  text NOT NULL CHECK (object_type IN ('reimbursement')),
  object_id    uuid NOT NULL REFERENCES reimbursements (id),
  -- Whose claim it is (the submitter); the `approver` visibility rule filters on it.
  user_id      uuid NOT NULL REFERENCES spend_users (id),
  -- The submitter's manager at submission (the approver scope shown); admins and bookkeepers
  -- may decide any approval, a manager their team's.
  approver_id  uuid REFERENCES spend_users (id),
  status       text NOT NULL CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'CANCELED')),
  reason       text CHECK (reason IS NULL OR status = 'REJECTED'),
  decided_by   uuid REFERENCES spend_users (id),
  decided_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  change_seq   bigint NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted      boolean NOT NULL DEFAULT false,
  CHECK ((status IN ('APPROVED', 'REJECTED')) = (decided_by IS NOT NULL AND decided_at IS NOT NULL)),
  CHECK (status <> 'REJECTED' OR reason IS NOT NULL)
);
CREATE INDEX approvals_feed ON approvals (business_id, change_seq);
-- One open review per claim: a second submission cannot open a second PENDING approval.
CREATE UNIQUE INDEX approvals_one_pending ON approvals (object_id) WHERE status = 'PENDING';
-- The inbox list: newest first, keyset on (created_at, id).
CREATE INDEX approvals_list ON approvals (business_id, created_at DESC, id DESC) WHERE NOT deleted;
CREATE INDEX approvals_user ON approvals (business_id, user_id);

-- Simulated ledger. A PAYMENT moves a claim's amount to its claimant (ACH, or payroll when the
-- claimant has a payroll currency); a REVERSAL (negative amount) undoes a payment that has not
-- settled (settles_at). Money moves once: at most one unreversed payment per claim, and at most
-- one reversal per payment, both enforced here whatever the application does.
CREATE TABLE ledger_entries (
  id                uuid PRIMARY KEY,
  business_id       uuid NOT NULL REFERENCES businesses (id),
  reimbursement_id  uuid NOT NULL REFERENCES reimbursements (id),
  user_id           uuid NOT NULL REFERENCES spend_users (id),
  kind              text NOT NULL CHECK (kind IN ('PAYMENT', 'REVERSAL')),
  method            text NOT NULL CHECK (method IN ('ACH', 'PAYROLL')),
  amount            bigint NOT NULL,
  currency          text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  reverses_id       uuid UNIQUE REFERENCES ledger_entries (id),
  reversed          boolean NOT NULL DEFAULT false,
  created_by        uuid NOT NULL REFERENCES spend_users (id),
  created_at        timestamptz NOT NULL,
  settles_at        timestamptz NOT NULL,
  CHECK ((kind = 'REVERSAL') = (reverses_id IS NOT NULL)),
  CHECK ((kind = 'PAYMENT' AND amount > 0) OR (kind = 'REVERSAL' AND amount < 0)),
  CHECK (kind = 'PAYMENT' OR NOT reversed)
);
CREATE UNIQUE INDEX ledger_one_open_payment ON ledger_entries (reimbursement_id) WHERE kind = 'PAYMENT' AND NOT reversed;
CREATE INDEX ledger_entries_business ON ledger_entries (business_id, reimbursement_id);
