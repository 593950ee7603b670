-- Issue 12: saved reports and dashboards (schema/entities/saved-report.ts, dashboard.ts;
-- server/domain/reporting/saved.ts). Mirrored as reference data to their owner alone (the
-- `self` rule) with change seqs and tombstones. A dashboard's items are jsonb in the user's order
-- ([{report_id, size}]); the write path checks each report is the owner's, and deleting a report
-- takes it off the owner's dashboards in the same transaction.
CREATE TABLE saved_reports (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  owner_id     uuid NOT NULL REFERENCES spend_users (id),
  name         text NOT NULL,
  query        jsonb NOT NULL,
  chart        text NOT NULL CHECK (chart IN ('line', 'bar', 'table')),
  change_seq   bigint NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted      boolean NOT NULL DEFAULT false
);
CREATE INDEX saved_reports_feed ON saved_reports (business_id, change_seq);
CREATE INDEX saved_reports_owner ON saved_reports (owner_id) WHERE NOT deleted;

CREATE TABLE dashboards (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  owner_id     uuid NOT NULL REFERENCES spend_users (id),
  name         text NOT NULL,
  items        jsonb NOT NULL DEFAULT '[]',
  change_seq   bigint NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted      boolean NOT NULL DEFAULT false
);
CREATE INDEX dashboards_feed ON dashboards (business_id, change_seq);
CREATE INDEX dashboards_owner ON dashboards (owner_id) WHERE NOT deleted;

