-- The dealers' choices at a hundred times the brand (issue 31, docs/decisions/071): a market's dealers by name, read
-- a page at a time through this index (`GET api/front/dealers` without a point), never the market's whole list sorted
-- in a temporary B-tree. The forms' dealer choices ask for the nearest by grid cell instead (migration 0029).
CREATE INDEX dealers_by_site_name ON dealers (site, name, id);

-- The catalogue's kinds of bike in their order, walked in it: the product types with their picture
-- (`GET api/front/product-types`) then sort nothing, their pictures read from the listing rows' index (migration 0028).
CREATE INDEX product_types_by_position ON product_types (position, id);
