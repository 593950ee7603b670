-- How Xero statement files write dates: Xero reads them in the organisation's own format
-- (UK/AU/NZ day first, US month first; ISO reads the same everywhere). Existing businesses keep
-- day first, what every file has used so far.
ALTER TABLE accounting_settings
  ADD COLUMN xero_date_format text NOT NULL DEFAULT 'DD/MM/YYYY'
  CHECK (xero_date_format IN ('DD/MM/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD'));
