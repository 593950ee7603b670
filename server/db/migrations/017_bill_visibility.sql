-- Issue 11: bills in the change feed. The bill_pay visibility rule (server/domain/visibility.ts)
-- shows a bill to whoever an approvals row names its approver (object_type 'bill'); this index
-- answers "which objects am I approver of" without scanning approvals for every feed page.
CREATE INDEX approvals_approver ON approvals (approver_id, object_type, object_id);
