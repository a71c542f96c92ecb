-- Rebuilds the embedded API's full-text search index from its tables. Run after loading or changing catalogue, news
-- or dealer data: `npx wrangler d1 execute DB --remote --file scripts/reindex-search.sql` (the demo seed runs it).
DELETE FROM search_index;

INSERT INTO search_index (title, body, kind, ref, site, locale)
SELECT n.name, n.tagline || ' ' || n.description || ' ' || COALESCE(tn.name, ''), 'product', p.id, '*', n.locale
  FROM products p
  JOIN product_names n ON n.product_id = p.id
  LEFT JOIN product_type_names tn ON tn.type_id = p.type_id AND tn.locale = n.locale;

-- News are indexed from the text of their blocks (headings, paragraphs, list items), never from HTML markup.
INSERT INTO search_index (title, body, kind, ref, site, locale)
SELECT title, excerpt || ' ' || COALESCE((
         SELECT group_concat(COALESCE(json_extract(b.value, '$.text'),
                                      (SELECT group_concat(i.value, ' ') FROM json_each(b.value, '$.items') i)), ' ')
           FROM json_each(news.blocks) b), ''),
       'news', id, scope, locale
  FROM news;

INSERT INTO search_index (title, body, kind, ref, site, locale)
SELECT name, address || ' ' || COALESCE(postal_code, '') || ' ' || city || ' ' || COALESCE(region, '')
         -- The address, town and region in the market's other languages too (ירושלים finds the Jerusalem dealer).
         || COALESCE((SELECT ' ' || group_concat(value, ' ') FROM json_tree(translations) WHERE type = 'text'), ''),
       'dealer', id, site, '*'
  FROM dealers;
