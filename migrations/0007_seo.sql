-- What search engines need to know about the public pages: when each thing last changed (a sitemap's lastmod), and
-- which articles are translations of one another (their hreflang alternates).

ALTER TABLE products ADD COLUMN updated_at TEXT;
ALTER TABLE news ADD COLUMN updated_at TEXT;
ALTER TABLE dealers ADD COLUMN updated_at TEXT;
ALTER TABLE page_contents ADD COLUMN updated_at TEXT;

-- Articles telling the same story in several languages share it; an article without one stands alone.
ALTER TABLE news ADD COLUMN story TEXT;
CREATE INDEX news_by_story ON news (story);

-- Rows that exist already changed "now" as far as anyone can tell.
UPDATE products SET updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now');
UPDATE news SET updated_at = published_at || 'T00:00:00Z';
UPDATE dealers SET updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now');
UPDATE page_contents SET updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now');

-- A row written without its own time gets the time of writing; a row changed without a new time gets it too. (SQLite
-- runs no trigger from inside another's UPDATE unless recursive triggers are on, which D1 leaves off.)
CREATE TRIGGER products_updated_on_insert AFTER INSERT ON products WHEN NEW.updated_at IS NULL
BEGIN UPDATE products SET updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = NEW.id; END;
CREATE TRIGGER products_updated_on_update AFTER UPDATE ON products WHEN NEW.updated_at IS OLD.updated_at
BEGIN UPDATE products SET updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = NEW.id; END;

CREATE TRIGGER news_updated_on_insert AFTER INSERT ON news WHEN NEW.updated_at IS NULL
BEGIN UPDATE news SET updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = NEW.id; END;
CREATE TRIGGER news_updated_on_update AFTER UPDATE ON news WHEN NEW.updated_at IS OLD.updated_at
BEGIN UPDATE news SET updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = NEW.id; END;

CREATE TRIGGER dealers_updated_on_insert AFTER INSERT ON dealers WHEN NEW.updated_at IS NULL
BEGIN UPDATE dealers SET updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = NEW.id; END;
CREATE TRIGGER dealers_updated_on_update AFTER UPDATE ON dealers WHEN NEW.updated_at IS OLD.updated_at
BEGIN UPDATE dealers SET updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = NEW.id; END;

CREATE TRIGGER page_contents_updated_on_insert AFTER INSERT ON page_contents WHEN NEW.updated_at IS NULL
BEGIN
  UPDATE page_contents SET updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE page_id = NEW.page_id AND locale = NEW.locale;
END;
CREATE TRIGGER page_contents_updated_on_update AFTER UPDATE ON page_contents WHEN NEW.updated_at IS OLD.updated_at
BEGIN
  UPDATE page_contents SET updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE page_id = NEW.page_id AND locale = NEW.locale;
END;
