-- Carts (issue 11): one per market and visitor, under a random code. An anonymous visitor's cart has no user; a
-- customer's has one, at most one per market. Stock per variant, which carts are checked against.

-- How many of a variant can be sold (for every market). The catalogue's `availability` stays what pages show.
ALTER TABLE product_variants ADD COLUMN stock INTEGER NOT NULL DEFAULT 0 CHECK (stock >= 0);
UPDATE product_variants SET stock = CASE availability
    WHEN 'in_stock' THEN 25 WHEN 'low_stock' THEN 3 WHEN 'preorder' THEN 10 ELSE 0 END;

CREATE TABLE carts (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  site TEXT NOT NULL,
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
-- A customer has one cart per market.
CREATE UNIQUE INDEX carts_of_customer ON carts (user_id, site) WHERE user_id IS NOT NULL;

CREATE TABLE cart_items (
  cart_id INTEGER NOT NULL REFERENCES carts(id) ON DELETE CASCADE,
  sku TEXT NOT NULL REFERENCES product_variants(sku) ON DELETE CASCADE,
  quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 10),
  added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  PRIMARY KEY (cart_id, sku)
);

-- Idempotency keys of "add to cart": the same key adds once (a double click), to the cart it first went to.
CREATE TABLE cart_adds (
  key TEXT PRIMARY KEY,
  cart_id INTEGER NOT NULL REFERENCES carts(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
