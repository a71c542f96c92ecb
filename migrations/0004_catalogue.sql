-- The public catalogue and content: product details, variants and per-market prices, news bodies, dealers, the
-- places a visitor may type into the dealer locator, and the full-text search index.

ALTER TABLE product_names ADD COLUMN description TEXT NOT NULL DEFAULT '';
-- JSON: a list of image paths (the first is the product's image), and a list of [spec key, value] pairs.
ALTER TABLE products ADD COLUMN gallery TEXT NOT NULL DEFAULT '[]';
ALTER TABLE products ADD COLUMN specs TEXT NOT NULL DEFAULT '[]';

CREATE TABLE product_variants (
  sku TEXT PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  position INTEGER NOT NULL DEFAULT 0,
  size TEXT NOT NULL,
  colour TEXT NOT NULL,
  availability TEXT NOT NULL CHECK (availability IN ('in_stock', 'low_stock', 'out_of_stock', 'preorder'))
);
CREATE INDEX product_variants_by_product ON product_variants (product_id, position);

-- A product is sold in a market when it has a price there, in the site's currency (minor units).
CREATE TABLE product_prices (
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  site TEXT NOT NULL,
  amount INTEGER NOT NULL,
  PRIMARY KEY (product_id, site)
);
CREATE INDEX product_prices_by_site ON product_prices (site);

-- Rich text (a small HTML subset); the Worker sanitises it before it reaches a page.
ALTER TABLE news ADD COLUMN body TEXT NOT NULL DEFAULT '';

CREATE TABLE dealers (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  site TEXT NOT NULL,
  name TEXT NOT NULL,
  address TEXT NOT NULL,
  postal_code TEXT,
  city TEXT NOT NULL,
  region TEXT,
  country_code TEXT NOT NULL,
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  phone TEXT,
  email TEXT,
  website TEXT,
  sales INTEGER NOT NULL DEFAULT 1,
  service INTEGER NOT NULL DEFAULT 1,
  test_rides INTEGER NOT NULL DEFAULT 1,
  -- JSON: seven lists (Monday first) of "HH:MM-HH:MM" ranges; [] is closed.
  hours TEXT NOT NULL DEFAULT '[[],[],[],[],[],[],[]]'
);
CREATE INDEX dealers_by_site ON dealers (site);

CREATE TABLE places (
  id INTEGER PRIMARY KEY,
  site TEXT NOT NULL,
  name TEXT NOT NULL,
  postal_code TEXT,
  lat REAL NOT NULL,
  lng REAL NOT NULL
);
CREATE INDEX places_by_site ON places (site);

-- One row per searchable thing and language: products (site '*', sold where priced), news (site = its scope) and
-- dealers (their site, every locale '*'). Diacritics are folded both in the index and in queries.
CREATE VIRTUAL TABLE search_index USING fts5(
  title,
  body,
  kind UNINDEXED,
  ref UNINDEXED,
  site UNINDEXED,
  locale UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2'
);
