-- The customers of a held shop (docs/decisions/043): the brand's backend's users, who log in there, buying from the
-- Worker's D1. Each is a users row of its own, created on first use, keyed here by the backend's user id; the row's
-- e-mail is a placeholder nobody can log in with (the address may belong to an account of the embedded API too), its
-- password none. The backend's current e-mail and name are kept here, for the customer's orders and their mails.
CREATE TABLE backend_customers (
  backend_id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
