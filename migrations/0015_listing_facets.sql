-- Product listings' filters and sorting (issue 12, item 2): what a visitor narrows a listing by. The discipline and
-- the frame material are keys the Worker translates (null where they do not apply, as on accessories); `electric`
-- marks e-bikes; `released_on` (YYYY-MM-DD) orders "newest first". Whether a product is in stock is not stored: the
-- API derives it from its variants' availability in the caller's market.
ALTER TABLE products ADD COLUMN discipline TEXT CHECK (discipline IS NULL OR discipline IN ('road', 'gravel', 'city', 'mtb', 'touring', 'kids', 'cargo', 'folding'));
ALTER TABLE products ADD COLUMN frame_material TEXT CHECK (frame_material IS NULL OR frame_material IN ('carbon', 'aluminium', 'steel', 'titanium'));
ALTER TABLE products ADD COLUMN electric INTEGER NOT NULL DEFAULT 0;
ALTER TABLE products ADD COLUMN released_on TEXT;
