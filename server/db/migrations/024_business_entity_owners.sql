-- Issue 14: business entities get owners (as departments and locations have since 004) and are
-- mirrored as reference data (schema/entities/business-entity.ts), so their names are known
-- offline. Like every mirrored table: a change_seq per write (server/domain/admin-org.ts writes
-- through writeMirrored) and tombstones (the `deleted` column already there). Existing entities,
-- live and deleted, take fresh seqs from their business's counter in creation order.
ALTER TABLE business_entities ADD COLUMN owner_ids uuid[] NOT NULL DEFAULT '{}';
ALTER TABLE business_entities ADD COLUMN change_seq bigint;

WITH counts AS (
  SELECT business_id, count(*) AS n FROM business_entities GROUP BY business_id
), bumped AS (
  UPDATE businesses b SET change_seq = b.change_seq + counts.n FROM counts WHERE b.id = counts.business_id
  RETURNING b.id, b.change_seq AS last, counts.n
), numbered AS (
  SELECT e.id, e.business_id, row_number() OVER (PARTITION BY e.business_id ORDER BY e.created_at, e.id) AS i FROM business_entities e
)
UPDATE business_entities e SET change_seq = bumped.last - bumped.n + numbered.i
  FROM numbered JOIN bumped ON bumped.id = numbered.business_id
 WHERE e.id = numbered.id;

ALTER TABLE business_entities ALTER COLUMN change_seq SET NOT NULL;
CREATE INDEX business_entities_feed ON business_entities (business_id, change_seq);

-- The departments' and locations' feed docs now carry owner_ids: rows that have owners take a
-- fresh seq so mirrors that already hold them pick the owners up.
WITH counts AS (
  SELECT business_id, count(*) AS n FROM departments WHERE cardinality(owner_ids) > 0 GROUP BY business_id
), bumped AS (
  UPDATE businesses b SET change_seq = b.change_seq + counts.n FROM counts WHERE b.id = counts.business_id
  RETURNING b.id, b.change_seq AS last, counts.n
), numbered AS (
  SELECT d.id, d.business_id, row_number() OVER (PARTITION BY d.business_id ORDER BY d.change_seq, d.id) AS i
    FROM departments d WHERE cardinality(d.owner_ids) > 0
)
UPDATE departments d SET change_seq = bumped.last - bumped.n + numbered.i
  FROM numbered JOIN bumped ON bumped.id = numbered.business_id
 WHERE d.id = numbered.id;

WITH counts AS (
  SELECT business_id, count(*) AS n FROM locations WHERE cardinality(owner_ids) > 0 GROUP BY business_id
), bumped AS (
  UPDATE businesses b SET change_seq = b.change_seq + counts.n FROM counts WHERE b.id = counts.business_id
  RETURNING b.id, b.change_seq AS last, counts.n
), numbered AS (
  SELECT l.id, l.business_id, row_number() OVER (PARTITION BY l.business_id ORDER BY l.change_seq, l.id) AS i
    FROM locations l WHERE cardinality(l.owner_ids) > 0
)
UPDATE locations l SET change_seq = bumped.last - bumped.n + numbered.i
  FROM numbered JOIN bumped ON bumped.id = numbered.business_id
 WHERE l.id = numbered.id;
