-- The embedded reference API's schema: markets, translations, SEO, menu, content and news.
-- Demo data lives in demo/ and is loaded only by local runs and tests, never by a migration.

CREATE TABLE sites (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  country_code TEXT NOT NULL,
  region TEXT NOT NULL CHECK (region IN ('africa', 'americas', 'asia', 'europe', 'oceania')),
  currency_token TEXT,
  currency_place TEXT CHECK (currency_place IN ('left', 'right')),
  settings TEXT NOT NULL DEFAULT '{}',
  page_links TEXT NOT NULL DEFAULT '{}',
  centre_lat REAL,
  centre_lng REAL,
  position INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE site_locales (
  site_id INTEGER NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  locale TEXT NOT NULL,
  url TEXT NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (site_id, locale)
);

-- scope '*' holds a locale's texts; a country slug in scope overrides single keys for that country.
CREATE TABLE translations (
  scope TEXT NOT NULL DEFAULT '*',
  locale TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (scope, locale, key)
);

CREATE TABLE seo_records (
  model_type TEXT NOT NULL,
  model_id INTEGER NOT NULL,
  locale TEXT NOT NULL,
  meta_name TEXT,
  meta_description TEXT,
  meta_keywords TEXT,
  page_title TEXT,
  og_title TEXT,
  og_description TEXT,
  og_image TEXT,
  og_image_alt TEXT,
  PRIMARY KEY (model_type, model_id, locale)
);

CREATE TABLE features (
  key TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE product_types (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  position INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE product_type_names (
  type_id INTEGER NOT NULL REFERENCES product_types(id) ON DELETE CASCADE,
  locale TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (type_id, locale)
);

CREATE TABLE products (
  id INTEGER PRIMARY KEY,
  type_id INTEGER NOT NULL REFERENCES product_types(id),
  slug TEXT NOT NULL UNIQUE,
  image TEXT,
  featured INTEGER NOT NULL DEFAULT 0,
  position INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE product_names (
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  locale TEXT NOT NULL,
  name TEXT NOT NULL,
  tagline TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (product_id, locale)
);

CREATE TABLE pages (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE
);

-- blocks: a JSON list of {type: 'heading'|'paragraph'|'list'|'contact', ...}; rendered as text, never as HTML.
CREATE TABLE page_contents (
  page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  locale TEXT NOT NULL,
  title TEXT NOT NULL,
  summary TEXT NOT NULL DEFAULT '',
  blocks TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (page_id, locale)
);

-- scope '*' is every market of the locale; otherwise the site slug the article belongs to.
CREATE TABLE news (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL,
  scope TEXT NOT NULL DEFAULT '*',
  locale TEXT NOT NULL,
  title TEXT NOT NULL,
  excerpt TEXT NOT NULL DEFAULT '',
  blocks TEXT NOT NULL DEFAULT '[]',
  image TEXT,
  published_at TEXT NOT NULL,
  UNIQUE (slug, locale, scope)
);
CREATE INDEX news_by_locale ON news (locale, scope, published_at DESC);
