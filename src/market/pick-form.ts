/** The market pickers' form: where it posts and its fields, shared by the pickers and the handler (pick-market.ts). */

/** Where the pickers' forms post. */
export const PICK_MARKET_PATH = '/_market'

/** The pickers' field with the path of the page the visitor switches from (market/same-page.ts). */
export const PICK_FROM_FIELD = 'from'

/** The field that says the visitor was told what happens to their cart (pages/market-switch.tsx), and goes on. */
export const CART_CONFIRMED_FIELD = 'cart_confirmed'
