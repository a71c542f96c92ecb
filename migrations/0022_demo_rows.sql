-- The demo's customers and staff are marked (issue 29, item 5; docs/decisions/054): the reference API signs them in
-- only on a deployment on this machine or under a reserved testing name, so a demo seed that reached a real D1 opens
-- no account there. Accounts made by sign-up or `npm run staff` are never demo rows.
ALTER TABLE users ADD COLUMN demo INTEGER NOT NULL DEFAULT 0;
ALTER TABLE staff_users ADD COLUMN demo INTEGER NOT NULL DEFAULT 0;
