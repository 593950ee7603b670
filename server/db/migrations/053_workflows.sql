-- Issue 29: automation workflows (schema/workflow.ts, server/domain/workflows/).
-- A workflow row holds its current version (rules as the wire jsonb, the canvas as drawn, so
-- node positions survive a save); `workflow_versions` keeps every saved version so an execution's
-- `workflow_version` can be read back. Rules are addressable by id (PUT/DELETE /v1/auth/rules/{id})
-- through `workflow_rules`, one row per rule of the current version.
-- Executions: UNIQUE (workflow_id, event_key) makes a workflow run at most once per trigger event,
-- even when the trigger fires twice or two processes race (the loser's insert does nothing).
CREATE TABLE workflows (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  trigger      text NOT NULL,
  rules        jsonb NOT NULL,
  canvas       jsonb,
  enabled      boolean NOT NULL,
  version      integer NOT NULL CHECK (version > 0),
  created_by   uuid NOT NULL REFERENCES spend_users (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  last_run_at  timestamptz,
  deleted      boolean NOT NULL DEFAULT false
);
-- The engine's one read per trigger event: enabled live workflows of a trigger, oldest first.
CREATE INDEX workflows_by_trigger ON workflows (business_id, trigger, created_at, id) WHERE enabled AND NOT deleted;
CREATE INDEX workflows_live ON workflows (business_id, created_at, id) WHERE NOT deleted;

CREATE TABLE workflow_versions (
  workflow_id  uuid NOT NULL REFERENCES workflows (id),
  version      integer NOT NULL,
  name         text NOT NULL,
  trigger      text NOT NULL,
  rules        jsonb NOT NULL,
  enabled      boolean NOT NULL,
  saved_by     uuid NOT NULL REFERENCES spend_users (id),
  saved_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workflow_id, version)
);

CREATE TABLE workflow_rules (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  workflow_id  uuid NOT NULL REFERENCES workflows (id),
  position     integer NOT NULL
);
CREATE INDEX workflow_rules_of ON workflow_rules (workflow_id, position);

CREATE TABLE workflow_executions (
  id               uuid PRIMARY KEY,
  business_id      uuid NOT NULL REFERENCES businesses (id),
  workflow_id      uuid NOT NULL REFERENCES workflows (id),
  workflow_version integer NOT NULL,
  trigger          text NOT NULL,
  event_key        text NOT NULL,
  object_type      text NOT NULL,
  object_id        uuid NOT NULL,
  inputs           jsonb NOT NULL,
  rule_id          uuid,
  rules            jsonb NOT NULL,
  actions          jsonb NOT NULL,
  status           text NOT NULL CHECK (status IN ('SUCCEEDED', 'NO_MATCH', 'PARTIAL', 'FAILED')),
  error            text,
  depth            integer NOT NULL CHECK (depth > 0),
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workflow_id, event_key)
);
-- The log newest first, per business, per workflow and per object.
CREATE INDEX workflow_executions_newest ON workflow_executions (business_id, created_at DESC, id DESC);
CREATE INDEX workflow_executions_workflow ON workflow_executions (workflow_id, created_at DESC, id DESC);
CREATE INDEX workflow_executions_object ON workflow_executions (business_id, object_id, created_at DESC, id DESC);

-- require_receipt: the object needs a receipt whatever the expense policy says; the missing-items
-- call reads it through server/domain/workflows/requirements.ts `workflowReceiptRequirements`.
CREATE TABLE workflow_receipt_requirements (
  business_id  uuid NOT NULL REFERENCES businesses (id),
  object_type  text NOT NULL CHECK (object_type IN ('transaction', 'reimbursement')),
  object_id    uuid NOT NULL,
  workflow_id  uuid NOT NULL REFERENCES workflows (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, object_id, workflow_id)
);
