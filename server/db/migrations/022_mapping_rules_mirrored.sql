-- Issue 12: accounting mapping rules are mirrored (reference data, schema/entities/mapping-rule.ts),
-- so the app suggests a rule's coding for an uncoded transaction offline. Like every mirrored
-- table: a change_seq per write (server/domain/accounting/mapping-rules.ts writes through
-- writeMirrored) and tombstones (the `deleted` column already there). Existing rules take fresh
-- seqs from their business's counter, in creation order, so mirrors pick them up.
ALTER TABLE accounting_mapping_rules ADD COLUMN change_seq bigint;

WITH counts AS (
  SELECT business_id, count(*) AS n FROM accounting_mapping_rules GROUP BY business_id
), bumped AS (
  UPDATE businesses b SET change_seq = b.change_seq + counts.n FROM counts WHERE b.id = counts.business_id
  RETURNING b.id, b.change_seq AS last, counts.n
), numbered AS (
  SELECT r.id, r.business_id, row_number() OVER (PARTITION BY r.business_id ORDER BY r.created_at, r.id) AS i FROM accounting_mapping_rules r
)
UPDATE accounting_mapping_rules r SET change_seq = bumped.last - bumped.n + numbered.i
  FROM numbered JOIN bumped ON bumped.id = numbered.business_id
 WHERE r.id = numbered.id;

ALTER TABLE accounting_mapping_rules ALTER COLUMN change_seq SET NOT NULL;
CREATE INDEX accounting_mapping_rules_feed ON accounting_mapping_rules (business_id, change_seq);
