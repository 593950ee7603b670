-- Issue 31: tokens of other surfaces (advisor console, vendor portal, financing application, firm
-- application). Every write is still audited; a surface caller has no spend user and no business,
-- so the row names the surface and the id it acted for, and a firm user's rows (in the console or
-- inside a client business as its hidden spend user) carry the firm.
ALTER TABLE audit_log
  ADD COLUMN surface text NOT NULL DEFAULT 'BUSINESS'
    CHECK (surface IN ('BUSINESS', 'ADVISOR_CONSOLE', 'VENDOR_PORTAL', 'FINANCING_APPLICATION', 'ADVISOR_CONSOLE_APPLICATION')),
  ADD COLUMN surface_id uuid,
  ADD COLUMN external_firm_id uuid;
CREATE INDEX audit_log_surface ON audit_log (surface, surface_id, at DESC) WHERE surface <> 'BUSINESS';
CREATE INDEX audit_log_external_firm ON audit_log (external_firm_id, at DESC) WHERE external_firm_id IS NOT NULL;
