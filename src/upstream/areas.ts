/**
 * The areas of the upstream contract (docs/api.md) a backend may serve or lack, and what each means for the site: its
 * calls (paths under `api/`), whether the Worker holds it itself on D1 when the backend lacks it (the embedded
 * reference API answers its calls), the pages the availability rule switches off when it is neither served nor
 * held, and its `lists`: the calls a backend serving the area answers 200 whatever it holds (an empty list, a
 * profile), so that their 404 proves the backend lacks the route (src/upstream/area-missing.ts). The original's eight
 * calls (sites, features, translations, the products' menu, SEO, login and user) belong to no area: every backend
 * serves them (docs/backend.md). One table, docs/backend.md "Areas" (docs/decisions/041).
 */
export const AREAS = {
  content: {
    calls: ['front/pages/', 'front/page-index'],
    lists: ['front/page-index'],
    held: false,
    pages: ['content-pages'],
  },
  catalogue: {
    calls: ['front/products', 'front/product-types'],
    lists: ['front/products', 'front/product-types'],
    held: false,
    pages: ['products'],
  },
  news: { calls: ['front/news'], lists: ['front/news'], held: false, pages: ['news'] },
  dealers: {
    calls: ['front/dealers', 'front/places'],
    lists: ['front/dealers'],
    held: false,
    pages: ['dealer-locator', 'dealer-pages'],
  },
  search: { calls: ['front/search'], lists: ['front/search'], held: false, pages: ['search'] },
  account: {
    calls: [
      'account/profile',
      'account/bikes',
      'account/bike-models',
      'account/addresses',
      'account/password',
      'account/erase',
      'auth/register',
      'auth/confirm-email',
      'auth/resend-confirmation',
      'auth/forgot-password',
      'auth/reset-password',
    ],
    lists: ['account/profile', 'account/bikes', 'account/bike-models', 'account/addresses'],
    held: false,
    pages: ['sign-up', 'account-bikes', 'account-addresses', 'account-profile', 'email-confirmation', 'password-reset'],
  },
  // A customer's orders are the shop's: they exist where the cart and checkout do.
  'cart-checkout': {
    calls: ['cart', 'carts/', 'account/cart', 'account/checkout', 'account/orders', 'payments/'],
    lists: ['account/orders'],
    held: false,
    pages: ['cart', 'checkout', 'account-orders'],
  },
  forms: {
    calls: ['forms/', 'jobs'],
    lists: ['jobs'],
    held: true,
    pages: ['test-drive', 'become-a-dealer', 'become-a-distributor', 'work-with-us', 'contact-us'],
  },
  whistleblower: { calls: ['whistleblower/'], lists: [], held: true, pages: ['whistleblower'] },
  newsletter: { calls: ['newsletter/'], lists: [], held: true, pages: ['newsletter'] },
  staff: { calls: ['staff/'], lists: [], held: true, pages: ['console'] },
} as const satisfies Record<
  string,
  { calls: readonly string[]; lists: readonly string[]; held: boolean; pages: readonly string[] }
>

/** An area of the contract: `content`, `catalogue`, `news`, `dealers`, `search`, `account`, `cart-checkout`… */
export type Area = keyof typeof AREAS

/**
 * The areas a deployment may choose to hold on D1 although the Worker does not hold them by itself (`UPSTREAM_HOLD`,
 * src/config.ts): the catalogue (products, prices and stock loaded into D1) and the shop on it (docs/decisions/043).
 */
export const HOLDABLE_AREAS = ['catalogue', 'cart-checkout'] as const satisfies readonly Area[]

/**
 * The customer's orders (`account/orders`, their payment attempts and payments): the shop's, so held with
 * cart-checkout whatever area the table files them under; a held order lives in D1, where the backend cannot read it.
 */
const SHOP_ORDER_CALLS = 'account/orders'

/** Every area, in the table's order. */
export const AREA_NAMES = Object.keys(AREAS) as Area[]

/**
 * A declaration of the areas a backend serves, as `UPSTREAM_AREAS` writes it: a comma-separated list
 * (`content,catalogue,news`), `none` for the original's eight calls only, empty for every area. Read alike by the
 * Worker (src/config.ts) and the conformance kit (scripts/check-backend/); the names that are no area are answered
 * apart, for the reader to log or refuse.
 *
 * @example
 * declaredAreas('content, news') // { areas: Set { 'content', 'news' }, unknown: [] }
 */
export function declaredAreas(value: string | undefined): { areas: ReadonlySet<Area> | 'all'; unknown: string[] } {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  if (!names.length) return { areas: 'all', unknown: [] }
  const areas = new Set<Area>()
  const unknown: string[] = []
  for (const name of names) {
    if ((AREA_NAMES as string[]).includes(name)) areas.add(name as Area)
    else if (name !== 'none') unknown.push(name)
  }
  return { areas, unknown }
}

/** The areas of one deployment: which the backend serves, which the Worker holds in its stead, which are off. */
export type Areas = {
  /** Whether the backend at `UPSTREAM_URL` (or the embedded API) serves the area. */
  served(area: Area): boolean
  /** Whether the area's calls go to the embedded API on D1 rather than to the backend. */
  held(area: Area): boolean
  /** The availability rule's pages of the areas neither served nor held (switched off everywhere). */
  offPages(): string[]
  /** Whether a call (its path under `api/`) goes to the embedded API on D1. */
  heldCall(path: string): boolean
}

/** The area a call belongs to (its path under `api/`, query included), or null for the original's eight calls. */
export function areaOfCall(path: string): Area | null {
  const bare = path.split('?')[0] ?? ''
  for (const area of AREA_NAMES) {
    if (
      AREAS[area].calls.some(
        (call) => bare === call.replace(/\/$/, '') || bare.startsWith(call.endsWith('/') ? call : `${call}/`),
      )
    )
      return area
  }
  return null
}

/** Whether a call (its path under `api/`) is one of the customer's orders. */
const isOrderCall = (path: string) => {
  const bare = path.split('?')[0] ?? ''
  return bare === SHOP_ORDER_CALLS || bare.startsWith(`${SHOP_ORDER_CALLS}/`)
}

/**
 * Whether a call (its path under `api/`) is the shop's: cart, checkout, payments, the customer's orders.
 *
 * @example
 * isShopCall('account/orders/A7K2/payment') // true
 */
export const isShopCall = (path: string) => areaOfCall(path) === 'cart-checkout' || isOrderCall(path)

/**
 * The areas of a deployment: `served` as configured (`UPSTREAM_AREAS`, read by src/config.ts), the held ones taken by
 * the embedded API when the Worker has one (`canHold`): those it holds by itself, and those the deployment chose to
 * hold (`hold`, `UPSTREAM_HOLD`). With cart-checkout held, the customer's orders are held with it.
 *
 * @example
 * const areas = areasOf(new Set(['content', 'catalogue']), true, new Set(['cart-checkout']))
 * areas.heldCall('forms/contact') // true
 * areas.heldCall('account/orders?page=1') // true
 */
export function areasOf(
  served: ReadonlySet<Area> | 'all',
  canHold: boolean,
  hold: ReadonlySet<Area> = new Set(),
): Areas {
  const isServed = (area: Area) => served === 'all' || served.has(area)
  const held = (area: Area) => !isServed(area) && canHold && (AREAS[area].held || hold.has(area))
  return {
    served: isServed,
    held,
    offPages: () => AREA_NAMES.filter((area) => !isServed(area) && !held(area)).flatMap((area) => AREAS[area].pages),
    heldCall(path) {
      const area = areaOfCall(path)
      return (area !== null && held(area)) || (held('cart-checkout') && isOrderCall(path))
    },
  }
}
