-- Quotas (issue 24): what each counted request used, per quota key ('<quota>:<who>'), with the
-- amount it used: 1 for a count (an invite, a receipt, a sign-up, a sign-in link), the size in
-- bytes for a byte quota (receipt bytes per person per day). A quota is full when the sum of the
-- amounts inside its sliding window reaches its maximum. Rows older than the longest window are
-- dropped as new ones are recorded (server/auth/quotas.ts).
CREATE TABLE quota_usage (
  key     text NOT NULL,
  at      timestamptz NOT NULL,
  amount  bigint NOT NULL CHECK (amount > 0)
);
CREATE INDEX quota_usage_key_at ON quota_usage (key, at);
