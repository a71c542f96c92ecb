-- Creating an account (issue 11, item 1): an address is confirmed by a mailed link before the account can buy.

-- When the customer proved the address is theirs; NULL until then. Customers who existed before sign-up (the demo's)
-- count as confirmed.
ALTER TABLE users ADD COLUMN email_confirmed_at TEXT;
UPDATE users SET email_confirmed_at = created_at WHERE email_confirmed_at IS NULL;

-- Confirmation links: only the token's SHA-256 is stored; a link works once and for 24 hours.
CREATE TABLE email_confirmations (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX email_confirmations_by_user ON email_confirmations (user_id, created_at);

-- The registrations already handled, by the key of the form they came from: the same form sent twice (a double
-- click, a refresh, a retry) is handled once. Only the key and the time are kept.
CREATE TABLE registrations (
  submission_key TEXT PRIMARY KEY,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
