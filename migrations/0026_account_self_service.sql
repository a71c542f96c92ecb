-- Account self-service (issue 30, item 10; docs/decisions/062): an erased account's row stays, emptied of the person
-- (no name, no phone, an address nobody can log in with, no password), so that the orders the law requires kept still
-- have their customer. When it was erased; NULL for a live account.
ALTER TABLE users ADD COLUMN erased_at TEXT;

-- The bikes an article names (issue 30, item 10): their product slugs, a JSON array, in the order the story names them;
-- the article page shows their cards and the way to a test ride.
ALTER TABLE news ADD COLUMN products TEXT NOT NULL DEFAULT '[]';
