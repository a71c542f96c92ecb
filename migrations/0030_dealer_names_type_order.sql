-- The dealers' choices at a hundred times the brand (issue 31, docs/decisions/071): a market's dealers by name, read
-- a page at a time through this index (`GET api/front/dealers` without a point), never the market's whole list sorted
-- in a temporary B-tree. The forms' dealer choices ask for the nearest by grid cell instead (migration 0029).
CREATE INDEX dealers_by_site_name ON dealers (site, name, id);

-- The catalogue's kinds of bike in their order, walked in it: the product types with their picture
-- (`GET api/front/product-types`) then sort nothing, their pictures read from the listing rows' index (migration 0028).
CREATE INDEX product_types_by_position ON product_types (position, id);

-- The products' and the articles' sitemap parts (the page index paged, as decision 070 paged the dealers): a
-- market's products with ids in [part * 1000, (part + 1) * 1000) that it sells (priced there), and a locale's
-- articles of one scope with ids in that range, how many and when the last of them changed (a removal counts as a
-- change), kept by the triggers below on every write. The sitemap index lists the parts from these small tables and
-- each part reads its own range of ids, never every product or article.
CREATE TABLE product_sitemap_parts (
  site TEXT NOT NULL,
  part INTEGER NOT NULL,
  count INTEGER NOT NULL,
  lastmod TEXT,
  PRIMARY KEY (site, part)
) WITHOUT ROWID;
INSERT INTO product_sitemap_parts (site, part, count, lastmod)
  SELECT pr.site, pr.product_id / 1000, COUNT(*), MAX(p.updated_at)
    FROM product_prices pr JOIN products p ON p.id = pr.product_id GROUP BY pr.site, pr.product_id / 1000;
CREATE INDEX product_prices_by_site_product ON product_prices (site, product_id);

CREATE TRIGGER product_sitemap_parts_on_price_insert AFTER INSERT ON product_prices
BEGIN
  INSERT INTO product_sitemap_parts (site, part, count, lastmod)
    VALUES (NEW.site, NEW.product_id / 1000, 1, (SELECT updated_at FROM products WHERE id = NEW.product_id))
    ON CONFLICT (site, part) DO UPDATE SET count = count + 1,
      lastmod = nullif(max(coalesce(lastmod, ''), coalesce(excluded.lastmod, '')), '');
END;
CREATE TRIGGER product_sitemap_parts_on_price_delete AFTER DELETE ON product_prices
BEGIN
  UPDATE product_sitemap_parts SET count = count - 1, lastmod = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
    WHERE site = OLD.site AND part = OLD.product_id / 1000;
END;
CREATE TRIGGER product_sitemap_parts_on_price_move AFTER UPDATE OF site, product_id ON product_prices
  WHEN OLD.site IS NOT NEW.site OR OLD.product_id IS NOT NEW.product_id
BEGIN
  UPDATE product_sitemap_parts SET count = count - 1, lastmod = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
    WHERE site = OLD.site AND part = OLD.product_id / 1000;
  INSERT INTO product_sitemap_parts (site, part, count, lastmod)
    VALUES (NEW.site, NEW.product_id / 1000, 1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
    ON CONFLICT (site, part) DO UPDATE SET count = count + 1, lastmod = excluded.lastmod;
END;
-- A product's change is its parts' newest change in every market that sells it.
CREATE TRIGGER product_sitemap_parts_on_product_update AFTER UPDATE OF updated_at ON products
  WHEN NEW.updated_at IS NOT NULL
BEGIN
  UPDATE product_sitemap_parts SET lastmod = nullif(max(coalesce(lastmod, ''), NEW.updated_at), '')
    WHERE part = NEW.id / 1000 AND site IN (SELECT site FROM product_prices WHERE product_id = NEW.id);
END;

CREATE TABLE news_sitemap_parts (
  locale TEXT NOT NULL,
  scope TEXT NOT NULL,
  part INTEGER NOT NULL,
  count INTEGER NOT NULL,
  lastmod TEXT,
  PRIMARY KEY (locale, scope, part)
) WITHOUT ROWID;
INSERT INTO news_sitemap_parts (locale, scope, part, count, lastmod)
  SELECT locale, scope, id / 1000, COUNT(*), MAX(updated_at) FROM news GROUP BY locale, scope, id / 1000;
-- One part's articles of a locale, read as one range of ids.
CREATE INDEX news_by_locale_id ON news (locale, id, scope);

CREATE TRIGGER news_sitemap_parts_on_insert AFTER INSERT ON news
BEGIN
  INSERT INTO news_sitemap_parts (locale, scope, part, count, lastmod)
    VALUES (NEW.locale, NEW.scope, NEW.id / 1000, 1, NEW.updated_at)
    ON CONFLICT (locale, scope, part) DO UPDATE SET count = count + 1,
      lastmod = nullif(max(coalesce(lastmod, ''), coalesce(excluded.lastmod, '')), '');
END;
CREATE TRIGGER news_sitemap_parts_on_update AFTER UPDATE ON news
BEGIN
  UPDATE news_sitemap_parts SET count = count - 1, lastmod = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
    WHERE locale = OLD.locale AND scope = OLD.scope AND part = OLD.id / 1000
      AND (OLD.locale IS NOT NEW.locale OR OLD.scope IS NOT NEW.scope OR OLD.id IS NOT NEW.id);
  INSERT INTO news_sitemap_parts (locale, scope, part, count, lastmod)
    VALUES (NEW.locale, NEW.scope, NEW.id / 1000, 1, NEW.updated_at)
    ON CONFLICT (locale, scope, part) DO UPDATE SET
      count = count + (CASE WHEN OLD.locale IS NOT NEW.locale OR OLD.scope IS NOT NEW.scope OR OLD.id IS NOT NEW.id
                            THEN 1 ELSE 0 END),
      lastmod = nullif(max(coalesce(lastmod, ''), coalesce(excluded.lastmod, '')), '');
END;
CREATE TRIGGER news_sitemap_parts_on_delete AFTER DELETE ON news
BEGIN
  UPDATE news_sitemap_parts SET count = count - 1, lastmod = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
    WHERE locale = OLD.locale AND scope = OLD.scope AND part = OLD.id / 1000;
END;
