-- Every query of the embedded API served by an index (issue 31; docs/decisions/068): what
-- tests/integration/query-plans.test.ts found reading a growing table whole or sorting one in a temporary B-tree.

-- Deleting a cart or a user looks up the rows that refer to it (ON DELETE CASCADE, foreign keys).
CREATE INDEX cart_adds_by_cart ON cart_adds (cart_id);
CREATE INDEX discount_redemptions_by_user ON discount_redemptions (user_id);
CREATE INDEX whistleblower_files_by_message ON whistleblower_files (message_id);

-- A customer's lists in the order they show: orders newest first (paged by keyset), addresses default first, bikes
-- newest first; an order's timeline; a cart's lines in the order added.
DROP INDEX orders_by_user;
CREATE INDEX orders_by_user ON orders (user_id, placed_at DESC, id DESC);
DROP INDEX addresses_by_user;
CREATE INDEX addresses_by_user ON addresses (user_id, is_default DESC);
DROP INDEX bikes_by_user;
CREATE INDEX bikes_by_user ON bikes (user_id, purchased_on DESC, id DESC);
CREATE INDEX order_events_by_time ON order_events (order_id, at);
CREATE INDEX cart_items_by_time ON cart_items (cart_id, added_at, sku);

-- An order set aside by a newer one of the same checkout.
CREATE INDEX orders_set_aside ON orders (set_aside_by) WHERE set_aside_by IS NOT NULL;

-- The console's lists, newest first and paged by keyset: orders (all, of a state, or a country's: the market's part
-- before the dash), lead-form submissions (all, of a kind, or not yet handled), the outbox (all, or of a kind). The
-- closed whistleblower cases page through whistleblower_reports_by_state (state, received_at).
CREATE INDEX orders_by_time ON orders (placed_at DESC, id DESC);
CREATE INDEX orders_by_status ON orders (status, placed_at DESC, id DESC);
CREATE INDEX orders_by_country ON orders (substr(market, 1, instr(market, '-') - 1), placed_at DESC, id DESC);
CREATE INDEX form_submissions_by_kind ON form_submissions (kind, created_at);
CREATE INDEX form_submissions_unhandled ON form_submissions (created_at) WHERE handled_at IS NULL;
CREATE INDEX outbox_by_kind ON outbox (kind, id);

-- The newsletter's addresses as typed in any case (lower(email)), and its spent or expired requests.
CREATE INDEX newsletter_subscribers_by_address ON newsletter_subscribers (lower(email), site);
CREATE INDEX newsletter_requests_by_address ON newsletter_requests (lower(email), site);
CREATE INDEX newsletter_requests_used ON newsletter_requests (used_at) WHERE used_at IS NOT NULL;
CREATE INDEX newsletter_requests_by_expiry ON newsletter_requests (expires_at);
