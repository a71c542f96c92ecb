-- Mail leaves through Cloudflare Queues (issue 28, item 4; docs/decisions/047): each outbox row is announced to the
-- mail queue by its id once written (queued_at; NULL: not yet, the scheduled run announces it), sent by the queue's
-- consumer (sent_at, the mail service's id), or failed for good (failed_at) with the last reason, never personal data.
ALTER TABLE outbox ADD COLUMN queued_at TEXT;
ALTER TABLE outbox ADD COLUMN provider_id TEXT;
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN failure TEXT;
ALTER TABLE outbox ADD COLUMN failed_at TEXT;
CREATE INDEX outbox_unqueued ON outbox (id) WHERE queued_at IS NULL AND sent_at IS NULL AND failed_at IS NULL;

-- Addresses the mail service reported as bounced or complained about (its signed webhook): the newsletter stops for
-- both, every mail for a bounce. Kept by the address's SHA-256 (lower case): the list names no one.
CREATE TABLE mail_suppressions (
  address_hash TEXT PRIMARY KEY,
  reason TEXT NOT NULL CHECK (reason IN ('bounced', 'complained')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
