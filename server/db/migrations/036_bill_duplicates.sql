-- Issue 25: a bill repeating another live bill's vendor and invoice number is refused unless the
-- person confirms it (server/domain/bill-creates.ts). The confirmed bill records the other bill
-- and who confirmed, and carries them in its doc (domain/collections.ts) to approvers and the
-- payment confirmation.
ALTER TABLE bills ADD COLUMN duplicate_of uuid REFERENCES bills (id);
ALTER TABLE bills ADD COLUMN duplicate_confirmed_by uuid REFERENCES spend_users (id);
ALTER TABLE bills ADD COLUMN duplicate_confirmed_at timestamptz;
-- Duplicate checks read a vendor's live bills under a per-vendor advisory lock, comparing
-- invoiceNumberKey in TypeScript: bills_invoice's (business_id, vendor_id) prefix serves them.

-- Duplicates entered before the check: each live bill after the first of its vendor and stored
-- invoice key names the first (nobody confirmed them: confirmed_by stays null, and the UI says so).
-- Only the marks change here; the mirror re-reads every bill anyway (MIRROR_SCHEMA_VERSION 7).
WITH live AS (
  SELECT id, business_id, vendor_id, invoice_key,
         first_value(id) OVER (PARTITION BY business_id, vendor_id, invoice_key ORDER BY created_at, id) AS first_id
    FROM bills
   WHERE NOT deleted AND status <> 'CANCELED'
)
UPDATE bills b SET duplicate_of = live.first_id
  FROM live
 WHERE b.id = live.id AND live.first_id <> live.id;
