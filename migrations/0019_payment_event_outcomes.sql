-- What each payment event did to its order (issue 26: settling is the API's call `POST api/payments/events`, idempotent
-- by event id): the same event again answers its first delivery's outcome without acting twice. NULL while the event
-- is being settled (its row, inserted first, is the lock). Events received before settled long ago and cannot say
-- what they did: "unchanged", which acts on nothing again.
ALTER TABLE webhook_events ADD COLUMN outcome TEXT
  CHECK (outcome IS NULL OR outcome IN ('paid', 'failed', 'unchanged', 'no_order', 'amount_mismatch'));
UPDATE webhook_events SET outcome = 'unchanged';
