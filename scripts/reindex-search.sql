-- Rebuilds the embedded API's full-text search index from its tables. Run after loading or changing catalogue, news
-- or dealer data: `npx wrangler d1 execute DB --remote --file scripts/reindex-search.sql` (the demo seed runs it).
DELETE FROM search_index;

INSERT INTO search_index (title, body, kind, ref, site, locale)
SELECT n.name, n.tagline || ' ' || n.description || ' ' || COALESCE(tn.name, ''), 'product', p.id, '*', n.locale
  FROM products p
  JOIN product_names n ON n.product_id = p.id
  LEFT JOIN product_type_names tn ON tn.type_id = p.type_id AND tn.locale = n.locale;

INSERT INTO search_index (title, body, kind, ref, site, locale)
SELECT title, excerpt || ' ' || body, 'news', id, scope, locale FROM news;

INSERT INTO search_index (title, body, kind, ref, site, locale)
SELECT name, address || ' ' || COALESCE(postal_code, '') || ' ' || city || ' ' || COALESCE(region, ''), 'dealer', id, site, '*'
  FROM dealers;
