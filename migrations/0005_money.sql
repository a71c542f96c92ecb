-- Money fit for checkout and structured data: each site's ISO 4217 currency beside its display token, and a price per
-- variant and market (a variant is sold in a market when it has a price there).

-- The currency of the site's prices. Existing rows take it from their token where the token says which; a site left
-- without one is a data error the API answers 500 for, until its currency is set. New and changed rows must have one.
ALTER TABLE sites ADD COLUMN currency TEXT CHECK (currency GLOB '[A-Z][A-Z][A-Z]');
UPDATE sites SET currency = CASE
    WHEN currency_token GLOB '[A-Z][A-Z][A-Z]' THEN currency_token
    WHEN currency_token = '€' THEN 'EUR'
    WHEN currency_token = '£' THEN 'GBP'
    WHEN currency_token = '₪' THEN 'ILS'
    WHEN currency_token = 'A$' THEN 'AUD'
    WHEN currency_token = 'R' AND country_code = 'ZA' THEN 'ZAR'
    WHEN currency_token = '$' AND country_code = 'US' THEN 'USD'
    WHEN currency_token = '$' AND country_code = 'MX' THEN 'MXN'
    WHEN currency_token = '$' AND country_code = 'AU' THEN 'AUD'
  END
 WHERE currency IS NULL;
CREATE TRIGGER sites_currency_on_insert BEFORE INSERT ON sites WHEN NEW.currency IS NULL
BEGIN SELECT RAISE(ABORT, 'sites.currency (ISO 4217) is required'); END;
CREATE TRIGGER sites_currency_on_update BEFORE UPDATE OF currency ON sites WHEN NEW.currency IS NULL
BEGIN SELECT RAISE(ABORT, 'sites.currency (ISO 4217) is required'); END;

-- A variant's price in a market, in minor units of the site's currency. A product's listed price is then its "from"
-- price: the lowest of its variants' prices in the market (product_prices.amount when none has one).
CREATE TABLE product_variant_prices (
  sku TEXT NOT NULL REFERENCES product_variants(sku) ON DELETE CASCADE,
  site TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount >= 0),
  PRIMARY KEY (sku, site)
);

-- Until now every variant of a product was sold wherever the product was, at its price: keep it so.
INSERT INTO product_variant_prices (sku, site, amount)
SELECT v.sku, pr.site, pr.amount
  FROM product_variants v
  JOIN product_prices pr ON pr.product_id = v.product_id;
