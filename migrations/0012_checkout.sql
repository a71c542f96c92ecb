-- Checkout (issue 11, items 4 and 6; docs/api.md "Checkout"): the choices a customer makes for a cart, the order it
-- becomes (once per placed checkout), the payment attempts of an order, and what paying does (stock, the cart, mail).

-- A cart's checkout choices, kept while the customer goes from the form to the review and back. Addresses are postal
-- addresses as JSON (the order copies them at placement); a null billing address is "the same as the delivery's".
CREATE TABLE checkouts (
  cart_id INTEGER PRIMARY KEY REFERENCES carts(id) ON DELETE CASCADE,
  shipping_address TEXT,
  billing_address TEXT,
  delivery_method TEXT CHECK (delivery_method IN ('home', 'pickup')),
  delivery_dealer TEXT,
  payment_method TEXT,
  -- Raised whenever an order of this cart is paid or set aside: the same lines placed again make a new order.
  generation INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

-- The variant an order line is (its stock leaves when the order is paid); older orders have none.
ALTER TABLE order_items ADD COLUMN sku TEXT;

-- The cart an order was placed from, and its placement key: one order per placed checkout (a double click, a
-- refresh, two tabs), whatever the requests. The key is the cart, its generation and the reviewed lines and amounts.
ALTER TABLE orders ADD COLUMN cart_id INTEGER REFERENCES carts(id) ON DELETE SET NULL;
ALTER TABLE orders ADD COLUMN checkout_key TEXT;
CREATE UNIQUE INDEX orders_by_checkout_key ON orders (checkout_key) WHERE checkout_key IS NOT NULL;
CREATE INDEX orders_by_cart ON orders (cart_id, id DESC) WHERE cart_id IS NOT NULL;
-- The payment attempt the order is on (1 at placement; a retry after a failure raises it), and the pick-up dealer.
ALTER TABLE orders ADD COLUMN payment_attempt INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN delivery_dealer_slug TEXT;
-- The language the order was placed in: its confirmation mail's.
ALTER TABLE orders ADD COLUMN locale TEXT;
-- The webhook event that made the order paid (src/payments/settle.ts): what paying does (stock, the cart, the mail)
-- runs in the same transaction as that change, and only for the event that made it.
ALTER TABLE orders ADD COLUMN paid_event TEXT;
-- The way to pay the buyer chose at checkout, as the test provider's page shows it (Stripe: payment_method_types).
ALTER TABLE payments ADD COLUMN method TEXT;
-- The order whose placement set this one aside (cancelled it while it waited for its payment): that placement's
-- batch raises the cart's generation only when it set one aside.
ALTER TABLE orders ADD COLUMN set_aside_by TEXT;
