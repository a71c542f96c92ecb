-- The whistleblower channel (EU Directive 2019/1937) and the staff console (issue 10, docs/decisions/014 and 015).
-- Every text a reporter or a case handler writes arrives sealed by the Worker (AES-GCM with the report's own key,
-- which is stored here only wrapped with WHISTLEBLOWER_KEY): these tables never hold a report's words in plain text.

-- The brand's staff: who signs in to /_console, with a password and a TOTP code (RFC 6238).
CREATE TABLE staff_users (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('case_handler', 'editor')),
  password_hash TEXT NOT NULL,
  -- The TOTP secret, base32 (what the authenticator app was given).
  totp_secret TEXT NOT NULL,
  -- The last TOTP step accepted: a code is good once (RFC 6238 §5.2).
  totp_last_step INTEGER NOT NULL DEFAULT 0,
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Staff bearer tokens: only their SHA-256 is stored.
CREATE TABLE staff_tokens (
  token_hash TEXT PRIMARY KEY,
  staff_id INTEGER NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX staff_tokens_by_staff ON staff_tokens (staff_id);

-- What staff changed outside cases (a market switched, a lead handled, a cache purged): who, when, what.
CREATE TABLE staff_events (
  id INTEGER PRIMARY KEY,
  staff_id INTEGER NOT NULL REFERENCES staff_users (id),
  action TEXT NOT NULL,
  -- What it concerned: `market:it`, `submission:42`, `cache:everything`.
  target TEXT NOT NULL,
  -- JSON: the change (`{"under_maintenance":true}`).
  detail TEXT NOT NULL DEFAULT '{}',
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX staff_events_by_target ON staff_events (target, at);

-- Lead-form submissions an editor has dealt with.
ALTER TABLE form_submissions ADD COLUMN handled_at TEXT;
ALTER TABLE form_submissions ADD COLUMN handled_by INTEGER REFERENCES staff_users (id);

-- A report is a case: its receipt code, the slow hash of its passphrase, its category and state in the clear (the
-- console lists them); everything the reporter wrote sealed.
CREATE TABLE whistleblower_reports (
  id INTEGER PRIMARY KEY,
  -- What the reporter keeps (WB-K7M2-Q9XD-4HNP-T3RS).
  receipt_code TEXT NOT NULL UNIQUE,
  -- The random id of the filled-in form: the same form sent twice stores one report.
  submission_key TEXT NOT NULL UNIQUE,
  -- PBKDF2 of the passphrase (src/api/passwords.ts).
  passphrase_hash TEXT NOT NULL,
  site TEXT NOT NULL,
  locale TEXT NOT NULL,
  category TEXT NOT NULL CHECK (category IN ('fraud_corruption', 'product_safety', 'environment', 'data_protection', 'harassment_discrimination', 'other')),
  anonymous INTEGER NOT NULL,
  -- The report's AES-GCM key, wrapped (AES-KW) with a key derived from WHISTLEBLOWER_KEY; base64.
  wrapped_key TEXT NOT NULL,
  -- Sealed JSON of the report: what happened, when and where, who is involved, the reporter's name and contact.
  sealed_report TEXT NOT NULL,
  -- Sealed e-mail address for "there is news" mails, when the reporter left one.
  sealed_notify TEXT,
  state TEXT NOT NULL DEFAULT 'received' CHECK (state IN ('received', 'acknowledged', 'in_progress', 'closed')),
  received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  acknowledged_at TEXT,
  -- The first feedback to the reporter (a message from the handler, or the closing outcome): the 3-month deadline.
  feedback_at TEXT,
  closed_at TEXT,
  -- Sealed outcome, written at closing.
  sealed_outcome TEXT
);
CREATE INDEX whistleblower_reports_by_state ON whistleblower_reports (state, received_at);

-- What was written about a case after the report: the reporter's answers, the handler's messages to the reporter and
-- the handlers' internal notes (never shown to the reporter).
CREATE TABLE whistleblower_messages (
  id INTEGER PRIMARY KEY,
  report_id INTEGER NOT NULL REFERENCES whistleblower_reports (id) ON DELETE CASCADE,
  author TEXT NOT NULL CHECK (author IN ('reporter', 'handler', 'note')),
  staff_id INTEGER REFERENCES staff_users (id),
  sealed_body TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX whistleblower_messages_by_report ON whistleblower_messages (report_id, id);

-- Attachments: sealed bytes in R2 (`wb/<uuid>`), their name and type sealed here.
CREATE TABLE whistleblower_files (
  id INTEGER PRIMARY KEY,
  report_id INTEGER NOT NULL REFERENCES whistleblower_reports (id) ON DELETE CASCADE,
  -- The reporter's answer it came with; null: with the report.
  message_id INTEGER REFERENCES whistleblower_messages (id) ON DELETE CASCADE,
  object_key TEXT NOT NULL UNIQUE,
  -- Sealed JSON { name, type }.
  sealed_meta TEXT NOT NULL,
  -- The sealed object's size in bytes.
  size INTEGER NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX whistleblower_files_by_report ON whistleblower_files (report_id);

-- The audit trail of a case: every read and write, by a handler or by the reporter (who, when, what).
CREATE TABLE case_events (
  id INTEGER PRIMARY KEY,
  report_id INTEGER NOT NULL REFERENCES whistleblower_reports (id) ON DELETE CASCADE,
  -- Null: the reporter.
  staff_id INTEGER REFERENCES staff_users (id),
  action TEXT NOT NULL CHECK (action IN ('received', 'reporter_opened', 'reporter_replied', 'opened', 'file_downloaded', 'acknowledged', 'message_sent', 'note_added', 'closed')),
  -- What it concerned, without content: a file id, a message id.
  detail TEXT NOT NULL DEFAULT '',
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX case_events_by_report ON case_events (report_id, id);
