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

-- A write to any table a listing row is derived from rebuilds the rows it touches: a price, the product's row in
-- that market; anything else, the product's rows in every market.
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
  DELETE FROM product_listings WHERE product_id = NEW.product_id AND site = NEW.site;
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
   WHERE p.id = NEW.product_id AND pr.site = NEW.site;
END;

CREATE TRIGGER product_prices_listed_update AFTER UPDATE ON product_prices BEGIN
  DELETE FROM product_listings WHERE product_id = OLD.product_id AND site = OLD.site;
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
   WHERE p.id = OLD.product_id AND pr.site = OLD.site;
  DELETE FROM product_listings WHERE product_id = NEW.product_id AND site = NEW.site;
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
   WHERE p.id = NEW.product_id AND pr.site = NEW.site;
END;

CREATE TRIGGER product_prices_listed_delete AFTER DELETE ON product_prices BEGIN
  DELETE FROM product_listings WHERE product_id = OLD.product_id AND site = OLD.site;
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
  DELETE FROM product_listings WHERE product_id IN (SELECT product_id FROM product_variants WHERE sku = NEW.sku) AND site = NEW.site;
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
   WHERE p.id IN (SELECT product_id FROM product_variants WHERE sku = NEW.sku) AND pr.site = NEW.site;
END;

CREATE TRIGGER product_variant_prices_listed_update AFTER UPDATE ON product_variant_prices BEGIN
  DELETE FROM product_listings WHERE product_id IN (SELECT product_id FROM product_variants WHERE sku = OLD.sku) AND site = OLD.site;
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
   WHERE p.id IN (SELECT product_id FROM product_variants WHERE sku = OLD.sku) AND pr.site = OLD.site;
  DELETE FROM product_listings WHERE product_id IN (SELECT product_id FROM product_variants WHERE sku = NEW.sku) AND site = NEW.site;
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
   WHERE p.id IN (SELECT product_id FROM product_variants WHERE sku = NEW.sku) AND pr.site = NEW.site;
END;

CREATE TRIGGER product_variant_prices_listed_delete AFTER DELETE ON product_variant_prices BEGIN
  DELETE FROM product_listings WHERE product_id IN (SELECT product_id FROM product_variants WHERE sku = OLD.sku) AND site = OLD.site;
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
   WHERE p.id IN (SELECT product_id FROM product_variants WHERE sku = OLD.sku) AND pr.site = OLD.site;
END;

CREATE TRIGGER product_types_listed_update AFTER UPDATE OF position ON product_types BEGIN
  UPDATE product_listings SET type_position = NEW.position WHERE type_id = NEW.id;
END;

-- Search with the market's language (docs/decisions/069).
-- What folding takes out or replaces, one step each: Greek letters with tonos or dialytika (their plain letter), and
-- Hebrew points and cantillation, Arabic vowel marks and the tatweel (nothing). Queries are folded alike, in the API.
CREATE TABLE search_folds (n INTEGER PRIMARY KEY, mark TEXT NOT NULL, plain TEXT NOT NULL);
INSERT INTO search_folds (n, mark, plain) VALUES
  (1, 'ά', 'α'),
  (2, 'έ', 'ε'),
  (3, 'ή', 'η'),
  (4, 'ί', 'ι'),
  (5, 'ό', 'ο'),
  (6, 'ύ', 'υ'),
  (7, 'ώ', 'ω'),
  (8, 'ϊ', 'ι'),
  (9, 'ϋ', 'υ'),
  (10, 'ΐ', 'ι'),
  (11, 'ΰ', 'υ'),
  (12, 'Ά', 'Α'),
  (13, 'Έ', 'Ε'),
  (14, 'Ή', 'Η'),
  (15, 'Ί', 'Ι'),
  (16, 'Ό', 'Ο'),
  (17, 'Ύ', 'Υ'),
  (18, 'Ώ', 'Ω'),
  (19, 'Ϊ', 'Ι'),
  (20, 'Ϋ', 'Υ'),
  (21, char(1425), ''),
  (22, char(1426), ''),
  (23, char(1427), ''),
  (24, char(1428), ''),
  (25, char(1429), ''),
  (26, char(1430), ''),
  (27, char(1431), ''),
  (28, char(1432), ''),
  (29, char(1433), ''),
  (30, char(1434), ''),
  (31, char(1435), ''),
  (32, char(1436), ''),
  (33, char(1437), ''),
  (34, char(1438), ''),
  (35, char(1439), ''),
  (36, char(1440), ''),
  (37, char(1441), ''),
  (38, char(1442), ''),
  (39, char(1443), ''),
  (40, char(1444), ''),
  (41, char(1445), ''),
  (42, char(1446), ''),
  (43, char(1447), ''),
  (44, char(1448), ''),
  (45, char(1449), ''),
  (46, char(1450), ''),
  (47, char(1451), ''),
  (48, char(1452), ''),
  (49, char(1453), ''),
  (50, char(1454), ''),
  (51, char(1455), ''),
  (52, char(1456), ''),
  (53, char(1457), ''),
  (54, char(1458), ''),
  (55, char(1459), ''),
  (56, char(1460), ''),
  (57, char(1461), ''),
  (58, char(1462), ''),
  (59, char(1463), ''),
  (60, char(1464), ''),
  (61, char(1465), ''),
  (62, char(1466), ''),
  (63, char(1467), ''),
  (64, char(1468), ''),
  (65, char(1469), ''),
  (66, char(1471), ''),
  (67, char(1473), ''),
  (68, char(1474), ''),
  (69, char(1476), ''),
  (70, char(1477), ''),
  (71, char(1479), ''),
  (72, char(1552), ''),
  (73, char(1553), ''),
  (74, char(1554), ''),
  (75, char(1555), ''),
  (76, char(1556), ''),
  (77, char(1557), ''),
  (78, char(1558), ''),
  (79, char(1559), ''),
  (80, char(1560), ''),
  (81, char(1561), ''),
  (82, char(1562), ''),
  (83, char(1611), ''),
  (84, char(1612), ''),
  (85, char(1613), ''),
  (86, char(1614), ''),
  (87, char(1615), ''),
  (88, char(1616), ''),
  (89, char(1617), ''),
  (90, char(1618), ''),
  (91, char(1619), ''),
  (92, char(1620), ''),
  (93, char(1621), ''),
  (94, char(1622), ''),
  (95, char(1623), ''),
  (96, char(1624), ''),
  (97, char(1625), ''),
  (98, char(1626), ''),
  (99, char(1627), ''),
  (100, char(1628), ''),
  (101, char(1629), ''),
  (102, char(1630), ''),
  (103, char(1631), ''),
  (104, char(1648), ''),
  (105, char(1600), ''),
  (106, char(1750), ''),
  (107, char(1751), ''),
  (108, char(1752), ''),
  (109, char(1753), ''),
  (110, char(1754), ''),
  (111, char(1755), ''),
  (112, char(1756), ''),
  (113, char(1759), ''),
  (114, char(1760), ''),
  (115, char(1761), ''),
  (116, char(1762), ''),
  (117, char(1763), ''),
  (118, char(1764), ''),
  (119, char(1767), ''),
  (120, char(1768), ''),
  (121, char(1770), ''),
  (122, char(1771), ''),
  (123, char(1772), ''),
  (124, char(1773), '');

DROP TABLE search_index;
-- Marks count as letters' parts (categories M*): a word written with Hebrew points or Arabic vowels stays one word.
-- title and body as written (the excerpt is cut from body), ftitle and fbody folded.
CREATE VIRTUAL TABLE search_index USING fts5(
  title,
  body,
  ftitle,
  fbody,
  kind UNINDEXED,
  ref UNINDEXED,
  site UNINDEXED,
  locale UNINDEXED,
  tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'"
);

-- What the search index holds, row by row: products (one row per language of their names; site '*', sold where
-- priced), news (their scope) and dealers (their site, every locale '*'). Each row's id places it: products from
-- 1e12 + id × 1000 + a slot per language, news 2e12 + id, dealers 3e12 + id, so a write replaces its rows by id.
-- `ftitle` and `fbody` are the title and body folded; the tokenizer folds Latin diacritics itself.
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
  -- A language's slot from its two letters (the contract's locales: 26 × 26 < 1000).
  SELECT 1000000000000 + p.id * 1000 + (unicode(substr(n.locale, 1, 1)) - 97) * 26 + unicode(substr(n.locale, 2, 1)) - 97 AS id,
         n.name AS title, n.tagline || ' ' || n.description || ' ' || COALESCE(tn.name, '') AS body, 'product' AS kind, p.id AS ref, '*' AS site, n.locale AS locale
    FROM products p
    JOIN product_names n ON n.product_id = p.id
    LEFT JOIN product_type_names tn ON tn.type_id = p.type_id AND tn.locale = n.locale
  UNION ALL
  -- News are indexed from the text of their blocks (headings, paragraphs, list items), never from HTML markup.
  SELECT 2000000000000 + id, title, excerpt || ' ' || COALESCE((
           SELECT group_concat(COALESCE(json_extract(b.value, '$.text'),
                                        (SELECT group_concat(i.value, ' ') FROM json_each(b.value, '$.items') i)), ' ')
             FROM json_each(news.blocks) b), ''),
         'news', id, scope, locale
    FROM news
  UNION ALL
  SELECT 3000000000000 + id, name, address || ' ' || COALESCE(postal_code, '') || ' ' || city || ' ' || COALESCE(region, '')
         -- The address, town and region in the market's other languages too (ירושלים finds the Jerusalem dealer).
         || COALESCE((SELECT ' ' || group_concat(value, ' ') FROM json_tree(translations) WHERE type = 'text'), ''),
         'dealer', id, site, '*'
    FROM dealers
) s;

INSERT INTO search_index (rowid, title, body, ftitle, fbody, kind, ref, site, locale)
SELECT id, title, body, ftitle, fbody, kind, ref, site, locale FROM search_sources;

-- Kept by the writes of what it indexes (a product type's renaming waits for scripts/reindex-search.sql).
CREATE TRIGGER product_names_searched_insert AFTER INSERT ON product_names BEGIN
  INSERT INTO search_index (rowid, title, body, ftitle, fbody, kind, ref, site, locale)
  SELECT id, title, body, ftitle, fbody, kind, ref, site, locale FROM search_sources WHERE kind = 'product' AND ref = NEW.product_id AND locale = NEW.locale;
END;

CREATE TRIGGER product_names_searched_update AFTER UPDATE ON product_names BEGIN
  DELETE FROM search_index WHERE rowid = 1000000000000 + OLD.product_id * 1000 + (unicode(substr(OLD.locale, 1, 1)) - 97) * 26 + unicode(substr(OLD.locale, 2, 1)) - 97;
  INSERT INTO search_index (rowid, title, body, ftitle, fbody, kind, ref, site, locale)
  SELECT id, title, body, ftitle, fbody, kind, ref, site, locale FROM search_sources WHERE kind = 'product' AND ref = NEW.product_id AND locale = NEW.locale;
END;

CREATE TRIGGER product_names_searched_delete AFTER DELETE ON product_names BEGIN
  DELETE FROM search_index WHERE rowid = 1000000000000 + OLD.product_id * 1000 + (unicode(substr(OLD.locale, 1, 1)) - 97) * 26 + unicode(substr(OLD.locale, 2, 1)) - 97;
END;

CREATE TRIGGER news_searched_insert AFTER INSERT ON news BEGIN
  DELETE FROM search_index WHERE rowid = 2000000000000 + NEW.id;
  INSERT INTO search_index (rowid, title, body, ftitle, fbody, kind, ref, site, locale)
  SELECT id, title, body, ftitle, fbody, kind, ref, site, locale FROM search_sources WHERE kind = 'news' AND ref = NEW.id;
END;

CREATE TRIGGER news_searched_update AFTER UPDATE ON news BEGIN
  DELETE FROM search_index WHERE rowid = 2000000000000 + OLD.id;
  INSERT INTO search_index (rowid, title, body, ftitle, fbody, kind, ref, site, locale)
  SELECT id, title, body, ftitle, fbody, kind, ref, site, locale FROM search_sources WHERE kind = 'news' AND ref = NEW.id;
END;

CREATE TRIGGER news_searched_delete AFTER DELETE ON news BEGIN
  DELETE FROM search_index WHERE rowid = 2000000000000 + OLD.id;
END;

CREATE TRIGGER dealers_searched_insert AFTER INSERT ON dealers BEGIN
  DELETE FROM search_index WHERE rowid = 3000000000000 + NEW.id;
  INSERT INTO search_index (rowid, title, body, ftitle, fbody, kind, ref, site, locale)
  SELECT id, title, body, ftitle, fbody, kind, ref, site, locale FROM search_sources WHERE kind = 'dealer' AND ref = NEW.id;
END;

CREATE TRIGGER dealers_searched_update AFTER UPDATE ON dealers BEGIN
  DELETE FROM search_index WHERE rowid = 3000000000000 + OLD.id;
  INSERT INTO search_index (rowid, title, body, ftitle, fbody, kind, ref, site, locale)
  SELECT id, title, body, ftitle, fbody, kind, ref, site, locale FROM search_sources WHERE kind = 'dealer' AND ref = NEW.id;
END;

CREATE TRIGGER dealers_searched_delete AFTER DELETE ON dealers BEGIN
  DELETE FROM search_index WHERE rowid = 3000000000000 + OLD.id;
END;
