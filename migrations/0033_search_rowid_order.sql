-- The search index's rows numbered so that FTS5's own order serves a page (issue 31, docs/decisions/081): a frequent
-- word's matches are read in rowid order, a bounded window of them, and ranked by BM25 within it; FTS5 ranks a
-- whole doclist only when it orders by rank. Each row's rowid now places it in a range of its own that a search reads
-- alone (a `rowid BETWEEN` FTS5 serves by seeking, so another language's or market's rows are never visited), and
-- within the range in the order a visitor is best served by when a word matches more than the window:
--   products  locale slot × 10^16 + product id (the demo's bikes, then the ones added after them)
--   news      locale slot × 10^16 + (1 for every market, 2 + the site's id for one market's) × 10^13
--             + (100,000 − the day published) × 10^7 + news id (the newest first)
--   dealers   9 × 10^18 + the site's id × 10^13 + dealer id
-- A language's slot is its two letters' place (26 × 26 slots; the contract's locales are two letters). The view and the
-- triggers compute the same numbers; a row is replaced by the rowid its old values give.
DROP TRIGGER product_names_searched_insert;
DROP TRIGGER product_names_searched_update;
DROP TRIGGER product_names_searched_delete;
DROP TRIGGER news_searched_insert;
DROP TRIGGER news_searched_update;
DROP TRIGGER news_searched_delete;
DROP TRIGGER dealers_searched_insert;
DROP TRIGGER dealers_searched_update;
DROP TRIGGER dealers_searched_delete;
DROP VIEW search_sources;

-- Every word of a query is a prefix ("strad" finds Strada): without a prefix index FTS5 merges the doclists of every
-- term the prefix begins, whole, before it can stop at a window. A prefix index of a word's first 1 to 8 letters makes
-- a query word of up to 8 letters one doclist FTS5 reads only as far as it needs; reference-api/resources/search.ts
-- searches a longer word by its first 8 letters (about 2.5 times the index's size: decision 081).
DROP TABLE search_index;
CREATE VIRTUAL TABLE search_index USING fts5(
  title,
  body,
  ftitle,
  fbody,
  kind UNINDEXED,
  ref UNINDEXED,
  site UNINDEXED,
  locale UNINDEXED,
  tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'",
  prefix = '1 2 3 4 5 6 7 8'
);

CREATE VIEW search_sources AS
SELECT id, title, body,
       CASE WHEN s.title GLOB '*[Ά-ΰϊ-ώ֑-ׇؐ-ۭ]*' THEN (WITH RECURSIVE f(n, t) AS (SELECT 0, s.title UNION ALL
           SELECT f.n + 1, replace(f.t, m.mark, m.plain) FROM f JOIN search_folds m ON m.n = f.n + 1)
         SELECT t FROM f ORDER BY n DESC LIMIT 1) ELSE s.title END AS ftitle,
       CASE WHEN s.body GLOB '*[Ά-ΰϊ-ώ֑-ׇؐ-ۭ]*' THEN (WITH RECURSIVE f(n, t) AS (SELECT 0, s.body UNION ALL
           SELECT f.n + 1, replace(f.t, m.mark, m.plain) FROM f JOIN search_folds m ON m.n = f.n + 1)
         SELECT t FROM f ORDER BY n DESC LIMIT 1) ELSE s.body END AS fbody,
       kind, ref, site, locale
  FROM (
  SELECT ((unicode(substr(n.locale, 1, 1)) - 97) * 26 + unicode(substr(n.locale, 2, 1)) - 97) * 10000000000000000 + p.id AS id,
         n.name AS title, n.tagline || ' ' || n.description || ' ' || COALESCE(tn.name, '') AS body, 'product' AS kind, p.id AS ref, '*' AS site, n.locale AS locale
    FROM products p
    JOIN product_names n ON n.product_id = p.id
    LEFT JOIN product_type_names tn ON tn.type_id = p.type_id AND tn.locale = n.locale
  UNION ALL
  -- News are indexed from the text of their blocks (headings, paragraphs, list items), never from HTML markup.
  SELECT ((unicode(substr(locale, 1, 1)) - 97) * 26 + unicode(substr(locale, 2, 1)) - 97) * 10000000000000000
           + (CASE scope WHEN '*' THEN 1 ELSE 2 + COALESCE((SELECT x.id FROM sites x WHERE x.slug = scope), 997) END) * 10000000000000
           + (100000 - CAST(julianday(published_at) - 2440587.5 AS INTEGER)) * 10000000 + id, title, excerpt || ' ' || COALESCE((
           SELECT group_concat(COALESCE(json_extract(b.value, '$.text'),
                                        (SELECT group_concat(i.value, ' ') FROM json_each(b.value, '$.items') i)), ' ')
             FROM json_each(news.blocks) b), ''),
         'news', id, scope, locale
    FROM news
  UNION ALL
  SELECT 9000000000000000000 + COALESCE((SELECT x.id FROM sites x WHERE x.slug = dealers.site), 999) * 10000000000000 + id, name, address || ' ' || COALESCE(postal_code, '') || ' ' || city || ' ' || COALESCE(region, '')
         -- The address, town and region in the market's other languages too (ירושלים finds the Jerusalem dealer).
         || COALESCE((SELECT ' ' || group_concat(value, ' ') FROM json_tree(translations) WHERE type = 'text'), ''),
         'dealer', id, site, '*'
    FROM dealers
) s;


INSERT INTO search_index (rowid, title, body, ftitle, fbody, kind, ref, site, locale)
SELECT id, title, body, ftitle, fbody, kind, ref, site, locale FROM search_sources ORDER BY id;

-- Kept by the writes of what it indexes (a product type's renaming waits for scripts/reindex-search.sql).
CREATE TRIGGER product_names_searched_insert AFTER INSERT ON product_names BEGIN
  INSERT INTO search_index (rowid, title, body, ftitle, fbody, kind, ref, site, locale)
  SELECT id, title, body, ftitle, fbody, kind, ref, site, locale FROM search_sources WHERE kind = 'product' AND ref = NEW.product_id AND locale = NEW.locale;
END;

CREATE TRIGGER product_names_searched_update AFTER UPDATE ON product_names BEGIN
  DELETE FROM search_index WHERE rowid = ((unicode(substr(OLD.locale, 1, 1)) - 97) * 26 + unicode(substr(OLD.locale, 2, 1)) - 97) * 10000000000000000 + OLD.product_id;
  INSERT INTO search_index (rowid, title, body, ftitle, fbody, kind, ref, site, locale)
  SELECT id, title, body, ftitle, fbody, kind, ref, site, locale FROM search_sources WHERE kind = 'product' AND ref = NEW.product_id AND locale = NEW.locale;
END;

CREATE TRIGGER product_names_searched_delete AFTER DELETE ON product_names BEGIN
  DELETE FROM search_index WHERE rowid = ((unicode(substr(OLD.locale, 1, 1)) - 97) * 26 + unicode(substr(OLD.locale, 2, 1)) - 97) * 10000000000000000 + OLD.product_id;
END;

CREATE TRIGGER news_searched_insert AFTER INSERT ON news BEGIN
  DELETE FROM search_index WHERE rowid = ((unicode(substr(NEW.locale, 1, 1)) - 97) * 26 + unicode(substr(NEW.locale, 2, 1)) - 97) * 10000000000000000
    + (CASE NEW.scope WHEN '*' THEN 1 ELSE 2 + COALESCE((SELECT x.id FROM sites x WHERE x.slug = NEW.scope), 997) END) * 10000000000000
    + (100000 - CAST(julianday(NEW.published_at) - 2440587.5 AS INTEGER)) * 10000000 + NEW.id;
  INSERT INTO search_index (rowid, title, body, ftitle, fbody, kind, ref, site, locale)
  SELECT id, title, body, ftitle, fbody, kind, ref, site, locale FROM search_sources WHERE kind = 'news' AND ref = NEW.id;
END;

CREATE TRIGGER news_searched_update AFTER UPDATE ON news BEGIN
  DELETE FROM search_index WHERE rowid = ((unicode(substr(OLD.locale, 1, 1)) - 97) * 26 + unicode(substr(OLD.locale, 2, 1)) - 97) * 10000000000000000
    + (CASE OLD.scope WHEN '*' THEN 1 ELSE 2 + COALESCE((SELECT x.id FROM sites x WHERE x.slug = OLD.scope), 997) END) * 10000000000000
    + (100000 - CAST(julianday(OLD.published_at) - 2440587.5 AS INTEGER)) * 10000000 + OLD.id;
  INSERT INTO search_index (rowid, title, body, ftitle, fbody, kind, ref, site, locale)
  SELECT id, title, body, ftitle, fbody, kind, ref, site, locale FROM search_sources WHERE kind = 'news' AND ref = NEW.id;
END;

CREATE TRIGGER news_searched_delete AFTER DELETE ON news BEGIN
  DELETE FROM search_index WHERE rowid = ((unicode(substr(OLD.locale, 1, 1)) - 97) * 26 + unicode(substr(OLD.locale, 2, 1)) - 97) * 10000000000000000
    + (CASE OLD.scope WHEN '*' THEN 1 ELSE 2 + COALESCE((SELECT x.id FROM sites x WHERE x.slug = OLD.scope), 997) END) * 10000000000000
    + (100000 - CAST(julianday(OLD.published_at) - 2440587.5 AS INTEGER)) * 10000000 + OLD.id;
END;

CREATE TRIGGER dealers_searched_insert AFTER INSERT ON dealers BEGIN
  DELETE FROM search_index WHERE rowid = 9000000000000000000 + COALESCE((SELECT x.id FROM sites x WHERE x.slug = NEW.site), 999) * 10000000000000 + NEW.id;
  INSERT INTO search_index (rowid, title, body, ftitle, fbody, kind, ref, site, locale)
  SELECT id, title, body, ftitle, fbody, kind, ref, site, locale FROM search_sources WHERE kind = 'dealer' AND ref = NEW.id;
END;

CREATE TRIGGER dealers_searched_update AFTER UPDATE ON dealers BEGIN
  DELETE FROM search_index WHERE rowid = 9000000000000000000 + COALESCE((SELECT x.id FROM sites x WHERE x.slug = OLD.site), 999) * 10000000000000 + OLD.id;
  INSERT INTO search_index (rowid, title, body, ftitle, fbody, kind, ref, site, locale)
  SELECT id, title, body, ftitle, fbody, kind, ref, site, locale FROM search_sources WHERE kind = 'dealer' AND ref = NEW.id;
END;

CREATE TRIGGER dealers_searched_delete AFTER DELETE ON dealers BEGIN
  DELETE FROM search_index WHERE rowid = 9000000000000000000 + COALESCE((SELECT x.id FROM sites x WHERE x.slug = OLD.site), 999) * 10000000000000 + OLD.id;
END;
