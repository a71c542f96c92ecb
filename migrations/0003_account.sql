-- The customer account: password resets, the mail outbox, addresses, registered bikes and orders.
-- Money is stored in minor units (cents) with the order's ISO currency; dates as ISO 8601 text (UTC).

-- Which product types a customer registers (bikes, not accessories) and their warranty.
ALTER TABLE product_types ADD COLUMN registrable INTEGER NOT NULL DEFAULT 0;
ALTER TABLE product_types ADD COLUMN warranty_years INTEGER NOT NULL DEFAULT 2;

-- A reset link's token is stored only as its SHA-256; a link is used once and expires.
CREATE TABLE password_resets (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX password_resets_by_user ON password_resets (user_id);

-- Outgoing mail. The embedded API writes here; a deployment plugs in a sender that drains it.
CREATE TABLE outbox (
  id INTEGER PRIMARY KEY,
  recipient TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  kind TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  sent_at TEXT
);

CREATE TABLE addresses (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  label TEXT,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  company TEXT,
  line1 TEXT NOT NULL,
  line2 TEXT,
  postal_code TEXT NOT NULL,
  city TEXT NOT NULL,
  region TEXT,
  country_code TEXT NOT NULL,
  phone TEXT,
  is_default INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX addresses_by_user ON addresses (user_id);

-- A frame serial number belongs to one account at a time.
CREATE TABLE bikes (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  product_id INTEGER NOT NULL REFERENCES products(id),
  serial_number TEXT NOT NULL UNIQUE,
  purchased_on TEXT NOT NULL,
  dealer_name TEXT,
  registered_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX bikes_by_user ON bikes (user_id);

CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  market TEXT NOT NULL,
  status TEXT NOT NULL,
  currency TEXT NOT NULL,
  subtotal INTEGER NOT NULL,
  shipping INTEGER NOT NULL DEFAULT 0,
  tax INTEGER NOT NULL DEFAULT 0,
  total INTEGER NOT NULL,
  billing_address TEXT NOT NULL,
  shipping_address TEXT,
  delivery_method TEXT NOT NULL,
  delivery_dealer TEXT,
  tracking_code TEXT,
  payment_method TEXT NOT NULL,
  payment_state TEXT NOT NULL,
  placed_at TEXT NOT NULL
);
CREATE INDEX orders_by_user ON orders (user_id, placed_at DESC);

CREATE TABLE order_items (
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  product_id INTEGER REFERENCES products(id),
  name TEXT NOT NULL,
  variant TEXT,
  quantity INTEGER NOT NULL,
  unit_price INTEGER NOT NULL,
  PRIMARY KEY (order_id, position)
);

-- The order's timeline: one row per status it reached.
CREATE TABLE order_events (
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (order_id, status)
);
