-- Lead forms: what visitors send (test-ride requests, dealer and distributor applications, job applications, contact
-- messages) and the markets' open positions. Submissions, their mails and their CVs are deleted after the
-- deployment's retention period by the Worker's scheduled handler (docs/decisions/013).

CREATE TABLE form_submissions (
  id INTEGER PRIMARY KEY,
  -- What the visitor quotes (TR-4K7M-Q2XD).
  reference TEXT NOT NULL UNIQUE,
  -- The random id of the filled-in form: the same form sent twice stores one submission.
  submission_key TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('test_ride', 'dealer', 'distributor', 'job', 'contact')),
  site TEXT NOT NULL,
  locale TEXT NOT NULL,
  email TEXT NOT NULL,
  -- JSON: the checked input, without the submission key.
  fields TEXT NOT NULL,
  -- The CV's R2 key (job applications).
  file_key TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX form_submissions_by_date ON form_submissions (created_at);
CREATE INDEX form_submissions_by_site ON form_submissions (site, kind, created_at);

-- The mails a submission caused go with it.
ALTER TABLE outbox ADD COLUMN submission_id INTEGER REFERENCES form_submissions (id) ON DELETE CASCADE;
CREATE INDEX outbox_by_submission ON outbox (submission_id);

CREATE TABLE jobs (
  id INTEGER PRIMARY KEY,
  site TEXT NOT NULL,
  open INTEGER NOT NULL DEFAULT 1,
  position INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX jobs_by_site ON jobs (site, open, position);

CREATE TABLE job_contents (
  job_id INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  locale TEXT NOT NULL,
  title TEXT NOT NULL,
  place TEXT NOT NULL,
  summary TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (job_id, locale)
);
