-- Mails a premium brand sends (issue 28, item 5; docs/decisions/050): each outbox row keeps the HTML part it is sent
-- with beside its plain text (`body`, what the console shows), and the headers it carries (JSON: the newsletter's
-- List-Unsubscribe and List-Unsubscribe-Post), so that the row stays the record of what left.
ALTER TABLE outbox ADD COLUMN html TEXT;
ALTER TABLE outbox ADD COLUMN headers TEXT;
