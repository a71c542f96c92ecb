-- Orders handled in the console (issue 28, item 2; docs/decisions/049): what staff did to an order, with who and when
-- (order_actions: the staff timeline beside the customer's order_events), the carrier of a shipped order, and its
-- refunds (pending until the provider's webhook confirms them; orders.refunded is what the provider confirmed).
ALTER TABLE orders ADD COLUMN carrier TEXT;
ALTER TABLE orders ADD COLUMN refunded INTEGER NOT NULL DEFAULT 0;

CREATE TABLE order_actions (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  action TEXT NOT NULL CHECK (action IN ('marked_paid', 'shipped', 'cancelled', 'refund_requested', 'refund_confirmed')),
  -- NULL: the provider (a refund confirmed by its webhook).
  staff_id INTEGER REFERENCES staff_users (id),
  detail TEXT NOT NULL DEFAULT '{}',
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX order_actions_by_order ON order_actions (order_id, at);

CREATE TABLE order_refunds (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  amount INTEGER NOT NULL CHECK (amount > 0),
  idempotency_key TEXT NOT NULL UNIQUE,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'refunded')),
  staff_id INTEGER REFERENCES staff_users (id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  confirmed_at TEXT
);
CREATE INDEX order_refunds_by_order ON order_refunds (order_id, id);

-- The test provider's own ledger of refunds (as a real provider keeps one): one per idempotency key.
CREATE TABLE payment_refunds (
  id TEXT PRIMARY KEY,
  payment_id TEXT NOT NULL REFERENCES payments (id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  idempotency_key TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- A refund's event (`payment.refunded`) has its own outcome, `refunded`: the outcome's CHECK is the column's, so the
-- table is built again with it (SQLite cannot change a column's CHECK in place).
CREATE TABLE webhook_events_next (
  event_id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  body_sha256 TEXT NOT NULL,
  payment_id TEXT NOT NULL,
  order_code TEXT NOT NULL,
  received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  outcome TEXT CHECK (outcome IS NULL OR outcome IN ('paid', 'failed', 'refunded', 'unchanged', 'no_order', 'amount_mismatch'))
);
INSERT INTO webhook_events_next (event_id, type, body_sha256, payment_id, order_code, received_at, outcome)
  SELECT event_id, type, body_sha256, payment_id, order_code, received_at, outcome FROM webhook_events;
DROP TABLE webhook_events;
ALTER TABLE webhook_events_next RENAME TO webhook_events;
