-- Sign-in hardening (issue 6).

-- Email addresses are case-folded once, at the boundary (auth/email-address.ts foldEmail), and
-- stored folded. The unique index is on lower(email), so folding cannot collide.
UPDATE identities SET email = lower(email) WHERE email <> lower(email);

-- The development mailbox is off unless LEDGERLINE_DEV_OUTBOX=1: what earlier runs kept there
-- (sign-in links, one-time codes, invite links, in plain text) must not outlive the upgrade.
DELETE FROM dev_outbox;

-- The sign-in throttle now counts (account, address) pairs under new keys ('sign-in:…'); the
-- per-account lock-out keys of 003 would never be read or pruned again.
DELETE FROM login_failures WHERE key LIKE 'account:%' OR key LIKE 'address:%';
