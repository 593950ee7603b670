-- Issue 25: an export file books one currency (QuickBooks IIF and Xero statements: one file per
-- currency, named with its ISO code) and a Xero statement is one account's (the corporate card, or
-- the bank account bills and claims are paid from). Files of earlier commits: a Xero part named
-- "-<CUR>_part-<n>.csv" held one currency (card, bill and claim lines together, so no account);
-- an earlier IIF file mixed currencies, so it has none.
ALTER TABLE accounting_sync_files
  ADD COLUMN currency text CHECK (currency ~ '^[A-Z]{3}$'),
  ADD COLUMN statement_account text CHECK (statement_account IN ('card', 'bank'));
UPDATE accounting_sync_files SET currency = substring(name FROM '-([A-Z]{3})_part-[0-9]+\.csv$')
 WHERE name ~ '^ledgerline-xero-.*-[A-Z]{3}_part-[0-9]+\.csv$';
