-- The dealer locator's places and dealers in the visitor's language (issue 12, item 7).

-- JSON: the dealer's address, town and region in another language than the one of `address`, `city` and `region`,
-- by locale: {"he": {"address": "…", "city": "…", "region": "…"}}. A locale without an entry shows the plain columns.
ALTER TABLE dealers ADD COLUMN translations TEXT NOT NULL DEFAULT '{}';

-- JSON: a place's name where a language of its market writes it otherwise ({"de": "Genf", "it": "Ginevra"}), shown
-- to that language's visitors; and other spellings a visitor may type (["Geneva"]), matched, never shown.
ALTER TABLE places ADD COLUMN names TEXT NOT NULL DEFAULT '{}';
ALTER TABLE places ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]';
