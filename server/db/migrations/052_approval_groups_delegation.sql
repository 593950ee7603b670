-- Issue 29: approval chains completed. Server-only tables (policies stay the admins' settings;
-- the approvals a chain opens remain the mirrored `approvals` rows).

-- Named approval groups a policy step may name ({kind: 'approval_group', group_id}). Resolved to
-- their members at submission, like every approver. A group a current policy names is not
-- deleted (domain/approval-groups.ts); deleting is a tombstone so old instances keep their story.
CREATE TABLE approval_groups (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  mode         text NOT NULL CHECK (mode IN ('any', 'all')),
  user_ids     uuid[] NOT NULL CHECK (cardinality(user_ids) BETWEEN 1 AND 50),
  created_by   uuid NOT NULL REFERENCES spend_users (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted      boolean NOT NULL DEFAULT false
);
CREATE INDEX approval_groups_business ON approval_groups (business_id, created_at, id) WHERE NOT deleted;
CREATE UNIQUE INDEX approval_groups_name ON approval_groups (business_id, lower(name)) WHERE NOT deleted;

-- Delegation (copilot): the delegator's approvals may be decided by the delegate from starts_on
-- to ends_on inclusive (UTC days). One delegation per delegator: a new one replaces it.
CREATE TABLE approval_delegations (
  id            uuid PRIMARY KEY,
  business_id   uuid NOT NULL REFERENCES businesses (id),
  delegator_id  uuid NOT NULL REFERENCES spend_users (id),
  delegate_id   uuid NOT NULL REFERENCES spend_users (id),
  starts_on     date NOT NULL,
  ends_on       date NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  CHECK (delegator_id <> delegate_id),
  CHECK (ends_on >= starts_on),
  UNIQUE (business_id, delegator_id)
);
-- The approver rule reads "who delegated to me, active today" for every approvals page.
CREATE INDEX approval_delegations_delegate ON approval_delegations (business_id, delegate_id, starts_on, ends_on);

-- A decision made through a delegation: decided_by is the delegate, on_behalf_of the approver
-- they stood in for ("by X for Y"). Server-side for now: the chain's step keeps both (`delegated`).
ALTER TABLE approvals ADD COLUMN on_behalf_of uuid REFERENCES spend_users (id);

-- What an instance was resolved against, so an admin can re-resolve it with the current policy.
ALTER TABLE approval_instances ADD COLUMN subject jsonb;

-- PUT assigned approval chain entities: a type's policy applies only to objects of these
-- entities (the others run the built-in default). No row: it applies to every entity.
CREATE TABLE approval_policy_entities (
  business_id  uuid NOT NULL REFERENCES businesses (id),
  object_type  text NOT NULL CHECK (object_type IN ('bill', 'card', 'reimbursement', 'spend_request', 'vendor-payment', 'payee', 'travel')),
  entity_ids   uuid[] NOT NULL,
  updated_by   uuid NOT NULL REFERENCES spend_users (id),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, object_type)
);

-- DELETE policy/{policy}: back to the built-in default, kept as a version (history stays).
ALTER TABLE approval_policies ADD COLUMN is_default boolean NOT NULL DEFAULT false;
