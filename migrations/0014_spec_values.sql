-- Specification values per locale and the bicycles' size guides (docs/api.md, `GET api/front/products/{slug}`).
-- product_names.specs: JSON, the product's specifications in that locale, `[{ "key", "parts": [...] }]` (text parts
-- translated, codes and quantities as they are); NULL falls back to English.
ALTER TABLE product_names ADD COLUMN specs TEXT;
-- products.size_guide: JSON, the frame sizes with rider heights (cm) and geometry (mm, degrees); NULL: no size guide.
ALTER TABLE products ADD COLUMN size_guide TEXT;
