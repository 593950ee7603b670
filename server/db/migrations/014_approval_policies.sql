-- Approval policies and chains (issue 11). Server-only (never mirrored): policies are the
-- admins' settings, instances the state of one object's chain; the approvals a chain opens stay
-- the mirrored `approvals` rows reviewers already act on.

-- Every edit of a type's policy is a new version; the current policy is the highest. A type
-- without a row runs the built-in default (version 0: the requester's manager, else the admins).
CREATE TABLE approval_policies (
  business_id  uuid NOT NULL REFERENCES businesses (id),
  object_type  text NOT NULL CHECK (object_type IN ('bill', 'card', 'reimbursement', 'spend_request', 'vendor-payment', 'payee')),
  version      integer NOT NULL CHECK (version > 0),
  -- The ordered steps as schema/approval-policy.ts's policyStepSchema parses them.
  steps        jsonb NOT NULL CHECK (jsonb_typeof(steps) = 'array'),
  created_by   uuid NOT NULL REFERENCES spend_users (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, object_type, version)
);

-- One object's chain, resolved once from the policy version current at submission and stored
-- whole (`steps`: approvers, mode, status, who approved), so a later policy edit never rewrites it.
CREATE TABLE approval_instances (
  id              uuid PRIMARY KEY,
  business_id     uuid NOT NULL REFERENCES businesses (id),
  object_type     text NOT NULL CHECK (object_type IN ('bill', 'card', 'reimbursement', 'spend_request', 'vendor-payment', 'payee')),
  object_id       uuid NOT NULL,
  requester_id    uuid NOT NULL REFERENCES spend_users (id),
  policy_version  integer NOT NULL CHECK (policy_version >= 0),
  status          text NOT NULL CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'CANCELED')),
  steps           jsonb NOT NULL CHECK (jsonb_typeof(steps) = 'array'),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
-- One running chain per object: a resubmission starts a new instance once the old one closed.
CREATE UNIQUE INDEX approval_instances_one_running ON approval_instances (object_id) WHERE status = 'PENDING';
CREATE INDEX approval_instances_business ON approval_instances (business_id, object_type, object_id);

-- The approvals a chain opens name their instance and step; rows from before issue 11 keep nulls.
ALTER TABLE approvals ADD COLUMN instance_id uuid REFERENCES approval_instances (id);
ALTER TABLE approvals ADD COLUMN step_index integer CHECK (step_index IS NULL OR step_index >= 0);
