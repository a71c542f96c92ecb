-- Listings at a hundred times the catalogue (issue 31, docs/decisions/069): one compact row per product and market it
-- is sold in, with what listings filter and sort by (its "from" price there and whether it is in stock there, derived
-- as the product's answer derives them), kept by triggers on every table it is derived from; and per market and type
-- the number of products of each combination of the filters that are values (discipline, material, e-bike, in
-- stock), kept by triggers on the listing rows, so a listing's facet counts read a few dozen rows whatever the
-- catalogue's size. The full-text index is rebuilt with a tokenizer that keeps Hebrew and Arabic marks inside words
-- and folds them, and is kept by triggers on what it indexes.

CREATE TABLE product_listings (
  site TEXT NOT NULL,
  product_id INTEGER NOT NULL,
  type_id INTEGER NOT NULL,
  type_position INTEGER NOT NULL,
  featured INTEGER NOT NULL,
  position INTEGER NOT NULL,
  discipline TEXT,
  frame_material TEXT,
  electric INTEGER NOT NULL,
  price INTEGER NOT NULL,
  in_stock INTEGER NOT NULL,
  released_on TEXT,
  PRIMARY KEY (site, product_id)
) WITHOUT ROWID;
-- One index per order, over every type and within one, each the order's ORDER BY exactly (the API names it), so a
-- page reads its own rows and those before it.
CREATE INDEX product_listings_featured ON product_listings (site, type_position, featured DESC, position, product_id);
CREATE INDEX product_listings_type_featured ON product_listings (site, type_id, type_position, featured DESC, position, product_id);
CREATE INDEX product_listings_price_asc ON product_listings (site, price, type_position, featured DESC, position, product_id);
CREATE INDEX product_listings_type_price_asc ON product_listings (site, type_id, price, type_position, featured DESC, position, product_id);
CREATE INDEX product_listings_price_desc ON product_listings (site, price DESC, type_position, featured DESC, position, product_id);
CREATE INDEX product_listings_type_price_desc ON product_listings (site, type_id, price DESC, type_position, featured DESC, position, product_id);
CREATE INDEX product_listings_newest ON product_listings (site, released_on IS NULL, released_on DESC, type_position, featured DESC, position, product_id);
CREATE INDEX product_listings_type_newest ON product_listings (site, type_id, released_on IS NULL, released_on DESC, type_position, featured DESC, position, product_id);
CREATE INDEX product_listings_by_product ON product_listings (product_id);

-- '' stands for "none" (an accessory has no discipline): a key column cannot hold NULL usefully.
CREATE TABLE product_listing_counts (
  site TEXT NOT NULL,
  type_id INTEGER NOT NULL,
  discipline TEXT NOT NULL,
  frame_material TEXT NOT NULL,
  electric INTEGER NOT NULL,
  in_stock INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (site, type_id, discipline, frame_material, electric, in_stock)
) WITHOUT ROWID;

CREATE TRIGGER product_listings_counted AFTER INSERT ON product_listings BEGIN
  INSERT INTO product_listing_counts (site, type_id, discipline, frame_material, electric, in_stock, n)
  VALUES (NEW.site, NEW.type_id, COALESCE(NEW.discipline, ''), COALESCE(NEW.frame_material, ''), NEW.electric, NEW.in_stock, 1)
  ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER product_listings_uncounted AFTER DELETE ON product_listings BEGIN
  UPDATE product_listing_counts SET n = n - 1
   WHERE site = OLD.site AND type_id = OLD.type_id AND discipline = COALESCE(OLD.discipline, '')
     AND frame_material = COALESCE(OLD.frame_material, '') AND electric = OLD.electric AND in_stock = OLD.in_stock;
  DELETE FROM product_listing_counts
   WHERE site = OLD.site AND type_id = OLD.type_id AND discipline = COALESCE(OLD.discipline, '')
     AND frame_material = COALESCE(OLD.frame_material, '') AND electric = OLD.electric AND in_stock = OLD.in_stock
     AND n <= 0;
END;

-- Every product sold somewhere, as it is now.
INSERT INTO product_listings (site, product_id, type_id, type_position, featured, position, discipline,
                                frame_material, electric, price, in_stock, released_on)
  SELECT pr.site, p.id, p.type_id, t.position, p.featured, p.position, p.discipline, p.frame_material, p.electric,
         COALESCE((SELECT MIN(vp.amount) FROM product_variants v
                     JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                    WHERE v.product_id = p.id), pr.amount),
         CASE WHEN NOT EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                                WHERE v.product_id = p.id) THEN 1
              ELSE EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                            WHERE v.product_id = p.id AND v.availability IN ('in_stock', 'low_stock')) END,
         p.released_on
    FROM products p
    JOIN product_types t ON t.id = p.type_id
    JOIN product_prices pr ON pr.product_id = p.id;

-- A write to any table a listing row is derived from rebuilds the rows of the products it touches.
CREATE TRIGGER products_listed_insert AFTER INSERT ON products BEGIN
  DELETE FROM product_listings WHERE product_id = NEW.id;
  INSERT INTO product_listings (site, product_id, type_id, type_position, featured, position, discipline,
                                  frame_material, electric, price, in_stock, released_on)
    SELECT pr.site, p.id, p.type_id, t.position, p.featured, p.position, p.discipline, p.frame_material, p.electric,
           COALESCE((SELECT MIN(vp.amount) FROM product_variants v
                       JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                      WHERE v.product_id = p.id), pr.amount),
           CASE WHEN NOT EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                                  WHERE v.product_id = p.id) THEN 1
                ELSE EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                              WHERE v.product_id = p.id AND v.availability IN ('in_stock', 'low_stock')) END,
           p.released_on
      FROM products p
      JOIN product_types t ON t.id = p.type_id
      JOIN product_prices pr ON pr.product_id = p.id
   WHERE p.id = NEW.id;
END;

CREATE TRIGGER products_listed_update AFTER UPDATE ON products BEGIN
  DELETE FROM product_listings WHERE product_id IN (SELECT OLD.id UNION SELECT NEW.id);
  INSERT INTO product_listings (site, product_id, type_id, type_position, featured, position, discipline,
                                  frame_material, electric, price, in_stock, released_on)
    SELECT pr.site, p.id, p.type_id, t.position, p.featured, p.position, p.discipline, p.frame_material, p.electric,
           COALESCE((SELECT MIN(vp.amount) FROM product_variants v
                       JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                      WHERE v.product_id = p.id), pr.amount),
           CASE WHEN NOT EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                                  WHERE v.product_id = p.id) THEN 1
                ELSE EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                              WHERE v.product_id = p.id AND v.availability IN ('in_stock', 'low_stock')) END,
           p.released_on
      FROM products p
      JOIN product_types t ON t.id = p.type_id
      JOIN product_prices pr ON pr.product_id = p.id
   WHERE p.id IN (SELECT OLD.id UNION SELECT NEW.id);
END;

CREATE TRIGGER products_listed_delete AFTER DELETE ON products BEGIN
  DELETE FROM product_listings WHERE product_id = OLD.id;
END;

CREATE TRIGGER product_prices_listed_insert AFTER INSERT ON product_prices BEGIN
  DELETE FROM product_listings WHERE product_id = NEW.product_id;
  INSERT INTO product_listings (site, product_id, type_id, type_position, featured, position, discipline,
                                  frame_material, electric, price, in_stock, released_on)
    SELECT pr.site, p.id, p.type_id, t.position, p.featured, p.position, p.discipline, p.frame_material, p.electric,
           COALESCE((SELECT MIN(vp.amount) FROM product_variants v
                       JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                      WHERE v.product_id = p.id), pr.amount),
           CASE WHEN NOT EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                                  WHERE v.product_id = p.id) THEN 1
                ELSE EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                              WHERE v.product_id = p.id AND v.availability IN ('in_stock', 'low_stock')) END,
           p.released_on
      FROM products p
      JOIN product_types t ON t.id = p.type_id
      JOIN product_prices pr ON pr.product_id = p.id
   WHERE p.id = NEW.product_id;
END;

CREATE TRIGGER product_prices_listed_update AFTER UPDATE ON product_prices BEGIN
  DELETE FROM product_listings WHERE product_id IN (SELECT OLD.product_id UNION SELECT NEW.product_id);
  INSERT INTO product_listings (site, product_id, type_id, type_position, featured, position, discipline,
                                  frame_material, electric, price, in_stock, released_on)
    SELECT pr.site, p.id, p.type_id, t.position, p.featured, p.position, p.discipline, p.frame_material, p.electric,
           COALESCE((SELECT MIN(vp.amount) FROM product_variants v
                       JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                      WHERE v.product_id = p.id), pr.amount),
           CASE WHEN NOT EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                                  WHERE v.product_id = p.id) THEN 1
                ELSE EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                              WHERE v.product_id = p.id AND v.availability IN ('in_stock', 'low_stock')) END,
           p.released_on
      FROM products p
      JOIN product_types t ON t.id = p.type_id
      JOIN product_prices pr ON pr.product_id = p.id
   WHERE p.id IN (SELECT OLD.product_id UNION SELECT NEW.product_id);
END;

CREATE TRIGGER product_prices_listed_delete AFTER DELETE ON product_prices BEGIN
  DELETE FROM product_listings WHERE product_id = OLD.product_id;
  INSERT INTO product_listings (site, product_id, type_id, type_position, featured, position, discipline,
                                  frame_material, electric, price, in_stock, released_on)
    SELECT pr.site, p.id, p.type_id, t.position, p.featured, p.position, p.discipline, p.frame_material, p.electric,
           COALESCE((SELECT MIN(vp.amount) FROM product_variants v
                       JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                      WHERE v.product_id = p.id), pr.amount),
           CASE WHEN NOT EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                                  WHERE v.product_id = p.id) THEN 1
                ELSE EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                              WHERE v.product_id = p.id AND v.availability IN ('in_stock', 'low_stock')) END,
           p.released_on
      FROM products p
      JOIN product_types t ON t.id = p.type_id
      JOIN product_prices pr ON pr.product_id = p.id
   WHERE p.id = OLD.product_id;
END;

CREATE TRIGGER product_variants_listed_insert AFTER INSERT ON product_variants BEGIN
  DELETE FROM product_listings WHERE product_id = NEW.product_id;
  INSERT INTO product_listings (site, product_id, type_id, type_position, featured, position, discipline,
                                  frame_material, electric, price, in_stock, released_on)
    SELECT pr.site, p.id, p.type_id, t.position, p.featured, p.position, p.discipline, p.frame_material, p.electric,
           COALESCE((SELECT MIN(vp.amount) FROM product_variants v
                       JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                      WHERE v.product_id = p.id), pr.amount),
           CASE WHEN NOT EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                                  WHERE v.product_id = p.id) THEN 1
                ELSE EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                              WHERE v.product_id = p.id AND v.availability IN ('in_stock', 'low_stock')) END,
           p.released_on
      FROM products p
      JOIN product_types t ON t.id = p.type_id
      JOIN product_prices pr ON pr.product_id = p.id
   WHERE p.id = NEW.product_id;
END;

CREATE TRIGGER product_variants_listed_update AFTER UPDATE ON product_variants BEGIN
  DELETE FROM product_listings WHERE product_id IN (SELECT OLD.product_id UNION SELECT NEW.product_id);
  INSERT INTO product_listings (site, product_id, type_id, type_position, featured, position, discipline,
                                  frame_material, electric, price, in_stock, released_on)
    SELECT pr.site, p.id, p.type_id, t.position, p.featured, p.position, p.discipline, p.frame_material, p.electric,
           COALESCE((SELECT MIN(vp.amount) FROM product_variants v
                       JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                      WHERE v.product_id = p.id), pr.amount),
           CASE WHEN NOT EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                                  WHERE v.product_id = p.id) THEN 1
                ELSE EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                              WHERE v.product_id = p.id AND v.availability IN ('in_stock', 'low_stock')) END,
           p.released_on
      FROM products p
      JOIN product_types t ON t.id = p.type_id
      JOIN product_prices pr ON pr.product_id = p.id
   WHERE p.id IN (SELECT OLD.product_id UNION SELECT NEW.product_id);
END;

CREATE TRIGGER product_variants_listed_delete AFTER DELETE ON product_variants BEGIN
  DELETE FROM product_listings WHERE product_id = OLD.product_id;
  INSERT INTO product_listings (site, product_id, type_id, type_position, featured, position, discipline,
                                  frame_material, electric, price, in_stock, released_on)
    SELECT pr.site, p.id, p.type_id, t.position, p.featured, p.position, p.discipline, p.frame_material, p.electric,
           COALESCE((SELECT MIN(vp.amount) FROM product_variants v
                       JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                      WHERE v.product_id = p.id), pr.amount),
           CASE WHEN NOT EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                                  WHERE v.product_id = p.id) THEN 1
                ELSE EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                              WHERE v.product_id = p.id AND v.availability IN ('in_stock', 'low_stock')) END,
           p.released_on
      FROM products p
      JOIN product_types t ON t.id = p.type_id
      JOIN product_prices pr ON pr.product_id = p.id
   WHERE p.id = OLD.product_id;
END;

CREATE TRIGGER product_variant_prices_listed_insert AFTER INSERT ON product_variant_prices BEGIN
  DELETE FROM product_listings WHERE product_id IN (SELECT product_id FROM product_variants WHERE sku = NEW.sku);
  INSERT INTO product_listings (site, product_id, type_id, type_position, featured, position, discipline,
                                  frame_material, electric, price, in_stock, released_on)
    SELECT pr.site, p.id, p.type_id, t.position, p.featured, p.position, p.discipline, p.frame_material, p.electric,
           COALESCE((SELECT MIN(vp.amount) FROM product_variants v
                       JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                      WHERE v.product_id = p.id), pr.amount),
           CASE WHEN NOT EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                                  WHERE v.product_id = p.id) THEN 1
                ELSE EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                              WHERE v.product_id = p.id AND v.availability IN ('in_stock', 'low_stock')) END,
           p.released_on
      FROM products p
      JOIN product_types t ON t.id = p.type_id
      JOIN product_prices pr ON pr.product_id = p.id
   WHERE p.id IN (SELECT product_id FROM product_variants WHERE sku = NEW.sku);
END;

CREATE TRIGGER product_variant_prices_listed_update AFTER UPDATE ON product_variant_prices BEGIN
  DELETE FROM product_listings WHERE product_id IN (SELECT product_id FROM product_variants WHERE sku IN (OLD.sku, NEW.sku));
  INSERT INTO product_listings (site, product_id, type_id, type_position, featured, position, discipline,
                                  frame_material, electric, price, in_stock, released_on)
    SELECT pr.site, p.id, p.type_id, t.position, p.featured, p.position, p.discipline, p.frame_material, p.electric,
           COALESCE((SELECT MIN(vp.amount) FROM product_variants v
                       JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                      WHERE v.product_id = p.id), pr.amount),
           CASE WHEN NOT EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                                  WHERE v.product_id = p.id) THEN 1
                ELSE EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                              WHERE v.product_id = p.id AND v.availability IN ('in_stock', 'low_stock')) END,
           p.released_on
      FROM products p
      JOIN product_types t ON t.id = p.type_id
      JOIN product_prices pr ON pr.product_id = p.id
   WHERE p.id IN (SELECT product_id FROM product_variants WHERE sku IN (OLD.sku, NEW.sku));
END;

CREATE TRIGGER product_variant_prices_listed_delete AFTER DELETE ON product_variant_prices BEGIN
  DELETE FROM product_listings WHERE product_id IN (SELECT product_id FROM product_variants WHERE sku = OLD.sku);
  INSERT INTO product_listings (site, product_id, type_id, type_position, featured, position, discipline,
                                  frame_material, electric, price, in_stock, released_on)
    SELECT pr.site, p.id, p.type_id, t.position, p.featured, p.position, p.discipline, p.frame_material, p.electric,
           COALESCE((SELECT MIN(vp.amount) FROM product_variants v
                       JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                      WHERE v.product_id = p.id), pr.amount),
           CASE WHEN NOT EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                                  WHERE v.product_id = p.id) THEN 1
                ELSE EXISTS (SELECT 1 FROM product_variants v JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = pr.site
                              WHERE v.product_id = p.id AND v.availability IN ('in_stock', 'low_stock')) END,
           p.released_on
      FROM products p
      JOIN product_types t ON t.id = p.type_id
      JOIN product_prices pr ON pr.product_id = p.id
   WHERE p.id IN (SELECT product_id FROM product_variants WHERE sku = OLD.sku);
END;

CREATE TRIGGER product_types_listed_update AFTER UPDATE OF position ON product_types BEGIN
  UPDATE product_listings SET type_position = NEW.position WHERE type_id = NEW.id;
END;
