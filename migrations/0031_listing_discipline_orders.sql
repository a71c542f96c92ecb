-- A listing of one discipline at a hundred times the catalogue (issue 31, docs/decisions/072): each order's index of
-- migration 0028 again with the discipline after the market (and the type), so a page of one discipline reads its own
-- rows and those before it, not the market's products of every other discipline it walks past in that order.
CREATE INDEX product_listings_discipline_featured ON product_listings (site, discipline, type_position, featured DESC, position, product_id);
CREATE INDEX product_listings_type_discipline_featured ON product_listings (site, type_id, discipline, type_position, featured DESC, position, product_id);
CREATE INDEX product_listings_discipline_price_asc ON product_listings (site, discipline, price, type_position, featured DESC, position, product_id);
CREATE INDEX product_listings_type_discipline_price_asc ON product_listings (site, type_id, discipline, price, type_position, featured DESC, position, product_id);
CREATE INDEX product_listings_discipline_price_desc ON product_listings (site, discipline, price DESC, type_position, featured DESC, position, product_id);
CREATE INDEX product_listings_type_discipline_price_desc ON product_listings (site, type_id, discipline, price DESC, type_position, featured DESC, position, product_id);
CREATE INDEX product_listings_discipline_newest ON product_listings (site, discipline, released_on IS NULL, released_on DESC, type_position, featured DESC, position, product_id);
CREATE INDEX product_listings_type_discipline_newest ON product_listings (site, type_id, discipline, released_on IS NULL, released_on DESC, type_position, featured DESC, position, product_id);
