-- The newsletter's sign-ups by the key of the form they came from and the address (issue 24, item 4): the same form
-- sent twice (a double click, a refresh, a retry) stores one pending request and mails one link, as every other form
-- does. The address is part of the key because the footer's form, and its token, is shared by every visitor of a page
-- the page cache keeps (docs/decisions/027). Requests stored before have none (NULL: never equal to another).
ALTER TABLE newsletter_requests ADD COLUMN submission_key TEXT;
CREATE UNIQUE INDEX newsletter_requests_by_submission ON newsletter_requests (submission_key, email);
