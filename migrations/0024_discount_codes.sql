-- Discount codes (issue 28, item 6; docs/decisions/051): per market, a percentage (basis points) or a fixed amount
-- (the market currency's minor units), a minimum subtotal, valid from/until (UTC, until exclusive), usage limits per
-- code and per customer, an active flag. A code is unique per market, kept as staff typed it in upper case.
CREATE TABLE discount_codes (
  id INTEGER PRIMARY KEY,
  site TEXT NOT NULL,
  code TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('percentage', 'amount')),
  value INTEGER NOT NULL CHECK (value > 0),
  minimum_subtotal INTEGER NOT NULL DEFAULT 0 CHECK (minimum_subtotal >= 0),
  valid_from TEXT,
  valid_until TEXT,
  usage_limit INTEGER CHECK (usage_limit IS NULL OR usage_limit > 0),
  per_customer_limit INTEGER CHECK (per_customer_limit IS NULL OR per_customer_limit > 0),
  active INTEGER NOT NULL DEFAULT 1,
  created_by INTEGER REFERENCES staff_users(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  UNIQUE (site, code)
);

-- One use of a code: taken in the placement's own batch, before its order, so two placements for the last use cannot
-- both have it. Keyed by the placement (checkout_key): the same placement again is the same use.
CREATE TABLE discount_redemptions (
  checkout_key TEXT PRIMARY KEY,
  code_id INTEGER NOT NULL REFERENCES discount_codes(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  cart_id INTEGER NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX discount_redemptions_of_code ON discount_redemptions (code_id, user_id);

-- The code a cart carries (applied again at every step), and the discount an order was placed with.
ALTER TABLE carts ADD COLUMN discount_code TEXT;
ALTER TABLE orders ADD COLUMN discount_code TEXT;
ALTER TABLE orders ADD COLUMN discount INTEGER NOT NULL DEFAULT 0;
