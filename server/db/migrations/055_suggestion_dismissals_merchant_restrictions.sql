-- Issue 29 (the last planned calls):
-- * DELETE suggested-context/{transaction}: when the coding suggestion shown for a transaction
--   (schema/mapping-rules.ts suggestCoding) was dismissed; mirrored, so the drawer stops showing it offline too.
-- * PUT merchant restrictions: merchant categories every card of the business is refused at
--   (server/domain/card-spend.ts, schema/card-rules.ts authorizeBusiness).
ALTER TABLE transactions ADD COLUMN coding_suggestion_dismissed_at timestamptz;
ALTER TABLE businesses ADD COLUMN blocked_merchant_categories text[] NOT NULL DEFAULT '{}',
  ADD COLUMN merchant_restrictions_updated_at timestamptz;
