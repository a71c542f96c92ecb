-- A hundred times the brand (issue 31, decision 070): dealers found by their grid cell, news pages found by a mark.

-- The dealer's cell of a grid of quarter degrees (about 28 km north to south): row * 2000 + column, rows counted from
-- the south pole, columns from the antimeridian. Computed by SQLite from lat and lng on every write (a generated
-- column: no writer can forget it, and the rows already there have it at once); the locator reads the cells around
-- its origin, ring by ring, through the index, never the whole market. `reference-api/dealer-cells.ts` computes the
-- same cells.
ALTER TABLE dealers ADD COLUMN cell INTEGER GENERATED ALWAYS AS (
  CAST((lat + 90) * 4 AS INTEGER) * 2000 + CAST((lng + 180) * 4 AS INTEGER)
) VIRTUAL;
CREATE INDEX dealers_by_cell ON dealers (site, cell);

-- The news index newest first per locale, the scope checked on the index's own entries.
CREATE INDEX news_by_locale_newest ON news (locale, published_at DESC, id DESC, scope);

-- Where each page of a market's news index starts (its first article's published_at and id) and how many articles
-- the market shows, written the first time a page is asked for and forgotten by every write to that locale's news:
-- page 50 seeks to its mark and reads its own articles, not the 49 pages before it (an OFFSET reads what it skips).
CREATE TABLE news_page_marks (
  scope TEXT NOT NULL,
  locale TEXT NOT NULL,
  per_page INTEGER NOT NULL,
  page INTEGER NOT NULL,
  published_at TEXT NOT NULL,
  id INTEGER NOT NULL,
  total INTEGER NOT NULL,
  PRIMARY KEY (scope, locale, per_page, page)
) WITHOUT ROWID;
CREATE INDEX news_page_marks_by_locale ON news_page_marks (locale);

CREATE TRIGGER news_page_marks_on_insert AFTER INSERT ON news
BEGIN DELETE FROM news_page_marks WHERE locale = NEW.locale; END;
CREATE TRIGGER news_page_marks_on_update AFTER UPDATE ON news
BEGIN DELETE FROM news_page_marks WHERE locale IN (OLD.locale, NEW.locale); END;
CREATE TRIGGER news_page_marks_on_delete AFTER DELETE ON news
BEGIN DELETE FROM news_page_marks WHERE locale = OLD.locale; END;

-- The dealers' parts of the sitemaps: a market's dealers with ids in [part * 1000, (part + 1) * 1000), how many and
-- when the last of them changed (a removal counts as a change), kept by the triggers below on every write: the sitemap
-- index lists the parts from this small table and each part reads its own range of ids, never every dealer.
CREATE TABLE dealer_sitemap_parts (
  site TEXT NOT NULL,
  part INTEGER NOT NULL,
  count INTEGER NOT NULL,
  lastmod TEXT,
  PRIMARY KEY (site, part)
) WITHOUT ROWID;
INSERT INTO dealer_sitemap_parts (site, part, count, lastmod)
  SELECT site, id / 1000, COUNT(*), MAX(updated_at) FROM dealers GROUP BY site, id / 1000;

CREATE TRIGGER dealer_sitemap_parts_on_insert AFTER INSERT ON dealers
BEGIN
  INSERT INTO dealer_sitemap_parts (site, part, count, lastmod) VALUES (NEW.site, NEW.id / 1000, 1, NEW.updated_at)
    ON CONFLICT (site, part) DO UPDATE SET count = count + 1, lastmod = nullif(max(coalesce(lastmod, ''), coalesce(excluded.lastmod, '')), '');
END;
CREATE TRIGGER dealer_sitemap_parts_on_update AFTER UPDATE ON dealers
BEGIN
  UPDATE dealer_sitemap_parts SET count = count - 1, lastmod = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
    WHERE site = OLD.site AND part = OLD.id / 1000 AND (OLD.site IS NOT NEW.site OR OLD.id IS NOT NEW.id);
  INSERT INTO dealer_sitemap_parts (site, part, count, lastmod) VALUES (NEW.site, NEW.id / 1000, 1, NEW.updated_at)
    ON CONFLICT (site, part) DO UPDATE SET
      count = count + (CASE WHEN OLD.site IS NOT NEW.site OR OLD.id IS NOT NEW.id THEN 1 ELSE 0 END),
      lastmod = nullif(max(coalesce(lastmod, ''), coalesce(excluded.lastmod, '')), '');
END;
CREATE TRIGGER dealer_sitemap_parts_on_delete AFTER DELETE ON dealers
BEGIN
  UPDATE dealer_sitemap_parts SET count = count - 1, lastmod = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
    WHERE site = OLD.site AND part = OLD.id / 1000;
END;
CREATE INDEX dealers_by_site_id ON dealers (site, id, slug, updated_at);
