-- Payments (issue 11, docs/api.md "Payments"): the embedded test provider's own ledger, and the webhook events the
-- Worker has acted on. Amounts in the currency's minor unit, dates as ISO 8601 text (UTC).

-- The test provider's payments (src/payments/test-provider.ts), as a real provider keeps them on its side: created
-- once per idempotency key, then pending until the buyer succeeds or fails it on the test page.
CREATE TABLE payments (
  id TEXT PRIMARY KEY,
  order_code TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount > 0),
  currency TEXT NOT NULL,
  market TEXT NOT NULL,
  description TEXT NOT NULL,
  return_url TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'paid', 'failed', 'cancelled')),
  idempotency_key TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX payments_by_order ON payments (order_code);

-- Every verified webhook event the Worker acted on, by the provider's event id: the same event again (a provider's
-- retry) changes nothing; another body under a known id is refused. body_sha256 tells the two apart.
CREATE TABLE webhook_events (
  event_id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  body_sha256 TEXT NOT NULL,
  payment_id TEXT NOT NULL,
  order_code TEXT NOT NULL,
  received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- The payment an order is waiting for (set by order placement when it creates the payment): a failed or cancelled
-- event of an older payment of the order then changes nothing. A paid event always counts (money moved).
ALTER TABLE orders ADD COLUMN payment_id TEXT;
