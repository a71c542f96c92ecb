-- The newsletter with double opt-in (issue 12, item 8): an address is a subscriber only once its owner confirmed it
-- through the mailed link.

-- Sign-up requests waiting for their confirmation: only the link token's SHA-256 is stored; a link works once and for
-- 48 hours. Spent and expired requests are deleted by later sign-ups (docs/api.md "Newsletter").
CREATE TABLE newsletter_requests (
  token_hash TEXT PRIMARY KEY,
  site TEXT NOT NULL,
  locale TEXT NOT NULL,
  email TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX newsletter_requests_by_email ON newsletter_requests (email, created_at);

-- Confirmed subscribers, one row per address and market (the market's newsletter, in the language they chose).
CREATE TABLE newsletter_subscribers (
  id INTEGER PRIMARY KEY,
  site TEXT NOT NULL,
  email TEXT NOT NULL,
  locale TEXT NOT NULL,
  confirmed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (site, email)
);
