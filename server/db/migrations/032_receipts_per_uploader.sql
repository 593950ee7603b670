-- Receipts deduped per uploader, not per business (issue 24 item 7): the same bytes uploaded by
-- two people are two receipts, so nobody learns (id, first upload time, read access) that a
-- colleague holds the same file. Existing rows stay as they are: a receipt that several people
-- uploaded before keeps its receipt_uploads rows (each of them still reads it); an upload from
-- now on finds only a row of its own uploader (receipts.user_id).
ALTER TABLE receipts DROP CONSTRAINT receipts_business_id_sha256_key;
ALTER TABLE receipts ADD CONSTRAINT receipts_business_id_user_id_sha256_key UNIQUE (business_id, user_id, sha256);
