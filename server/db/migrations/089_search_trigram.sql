-- Issue 33: search over transactions' search_text by trigrams. The list's search is a substring
-- match (`search_text LIKE '%term%'`, server/domain/transaction-sql.ts filterConditions); without
-- an index a word that is rare or absent reads every live row's search_text before the sort (21.5 ms
-- at 20k rows, ≈ 100 ms at 100k). pg_trgm's GIN operator class answers LIKE '%term%' for terms of
-- three characters or more from the index (rows re-checked, so results are exactly the LIKE's);
-- a common word still walks the newest-first index and stops at the page, as the planner chooses.
-- Writes: GIN's fast update queues new rows' trigrams in a pending list merged in batches (a
-- row's ≈ 80 trigrams inserted one by one cost 20× more), but the planner costs a search as if it
-- read that whole list: at the default 4 MB limit it chose the full scan at 20k rows until a VACUUM
-- (PGlite has no autovacuum). 256 kB keeps the batches and bounds that cost.
-- PGlite loads the extension's files itself (server/db/db.ts PGLITE_EXTENSIONS). pg_trgm is a
-- trusted extension: the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX transactions_search_trgm ON transactions USING gin (search_text gin_trgm_ops)
  WITH (gin_pending_list_limit = 256) WHERE NOT deleted;
