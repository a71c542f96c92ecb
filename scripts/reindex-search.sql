-- Rebuilds the embedded API's full-text search index from its tables (the view search_sources of
-- migrations/0033). The index is kept by the writes of what it indexes; run this after a bulk load that bypassed them
-- or a product type's renaming: `npx wrangler d1 execute DB --remote --file scripts/reindex-search.sql` (the demo seed
-- runs it). In rowid order: FTS5 writes the rows in one run then (docs/decisions/081).
DELETE FROM search_index;

INSERT INTO search_index (rowid, title, body, ftitle, fbody, kind, ref, site, locale)
SELECT id, title, body, ftitle, fbody, kind, ref, site, locale FROM search_sources ORDER BY id;

-- One segment of the index after the rebuild, the deleted rows' entries gone: a query then seeks once per term.
INSERT INTO search_index (search_index) VALUES ('optimize');
