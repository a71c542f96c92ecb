-- Page slugs in each locale's own language (issue 12, item 9): `/ch-fr/essai` beside `/ch-de/probefahrt`. A JSON
-- object, page key → slug, over the site's `page_links` key by key; '{}' keeps the site-wide slugs (docs/api.md
-- "pageLinks").
ALTER TABLE site_locales ADD COLUMN page_links TEXT NOT NULL DEFAULT '{}';
