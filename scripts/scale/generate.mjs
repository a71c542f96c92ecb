// The demo at a scale (issue 31): the demo seed's rows (scripts/demo-seed.mjs), then the brand grown on top of them —
// products with their names in every locale, variants and prices per market, articles, dealers with coordinates,
// customers with addresses and orders, leads, whistleblower cases and mails — through the same tables the embedded API
// reads. Deterministic: the same scale gives the same statements and the same rows (a seeded PRNG for the dealers'
// places; everything else from the row's number). Pure JavaScript: `npm run bench:scale` runs it in Node and
// tests/integration/rows-read.test.ts inside workerd. Most rows are made by D1 itself (`INSERT … SELECT` over a counter
// and the demo's own rows), so even 100× is a few hundred kilobytes of SQL, not the gigabyte its rows would be.

/** What 1× adds to the demo (about the demo's own size); 10× and 100× multiply it. 100× is the brand the issue names. */
export const SCALE_UNIT = {
  products: 20,
  articles: 40,
  dealers: 50,
  customers: 1000,
  orders: 3000,
  leads: 500,
  cases: 10,
  mails: 300,
}

/** The scales the benchmark measures. */
export const SCALES = [1, 10, 100]

/** The customer with many orders at every scale (the account pages' worst case), and their password. */
export const MANY_ORDERS_CUSTOMER = {
  id: 100_001,
  email: 'many-orders@scale.example',
  password: 'Scale-Rider-2026!',
  orders: 500,
}

/** Every generated customer's password hash ('Scale-Rider-2026!', a fixed salt: the same rows every run). */
const SCALE_PASSWORD_HASH = 'pbkdf2-sha256$100000$YXVyb3JhLXNjYWxlLXJkcg==$Xf/b7/y4/1A5zFnofewK4BwHy+xEXTKyIL82bbqdAsQ='

/** Where generated ids start: above any id of the demo's. */
const FIRST = { product: 1000, news: 1000, dealer: 100_000, user: 100_000, order: 100_000, lead: 100_000 }

/** How many rows of each kind a scale adds (the counts the benchmark prints). */
export const scaleCounts = (scale) => Object.fromEntries(Object.entries(SCALE_UNIT).map(([k, n]) => [k, n * scale]))

/** mulberry32: a small seeded PRNG, the same numbers for the same seed. */
function prng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** How many generated products' variant prices one statement inserts. */
const PRODUCTS_A_STATEMENT = 250

/** A counter CTE `n(k)` from `from` to `count`. */
const counter = (count, from = 1) => `n(k) AS (SELECT ${from} UNION ALL SELECT k + 1 FROM n WHERE k < ${count})`

/** The demo's rows of a table below `below`, numbered 1… as `base(id, rn)`, and their count `cnt(c)`. */
const demoRows = (table, below) =>
  `base AS (SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS rn FROM ${table} WHERE id < ${below}), cnt AS (SELECT COUNT(*) AS c FROM base)`

/** The generated products `pairs(id, base, k)` for k from `from` to `to`: product k copies the demo product k-th in turn. */
const productPairs = (to, from = 1) =>
  `WITH RECURSIVE ${counter(to, from)}, ${demoRows('products', FIRST.product)},
   pairs AS (SELECT ${FIRST.product} + k AS id, b.id AS base, k FROM n, cnt JOIN base b ON b.rn = (k - 1) % cnt.c + 1)`

/** SQL text literal. */
const text = (value) => `'${String(value).replaceAll("'", "''")}'`

/** First and last names the generated customers take in turn (JSON arrays SQLite reads by index). */
const FIRST_NAMES = [
  'Anna',
  'Marco',
  'Sofia',
  'Luca',
  'Elena',
  'Jonas',
  'Clara',
  'Mateo',
  'Noa',
  'Yusuf',
  'Maya',
  'Pietro',
]
const LAST_NAMES = ['Bianchi', 'Keller', 'Moreau', 'García', 'Novak', 'Cohen', 'Haddad', 'Silva', 'Jansen', 'Horvat']
const pick = (names, expression) =>
  `json_extract(${text(JSON.stringify(names))}, '$[' || ((${expression}) % ${names.length}) || ']')`

/** The lead forms' kinds, taken in turn, with a few fields each as the console lists and opens them. */
const LEAD_KINDS = ['test_ride', 'contact', 'dealer', 'distributor', 'job']

/**
 * The statements that grow a database holding the demo seed to `scale` (1, 10, 100). `dealers`: the demo's dealers
 * (demo/content/dealers.json's `dealers`, in their order: their ids are 1…); each generated dealer copies one near
 * its place.
 *
 * @example
 * for (const sql of scaleStatements(10, { dealers })) await db.prepare(sql).run()
 */
export function scaleStatements(scale, { dealers }) {
  const count = scaleCounts(scale)
  const statements = []

  // Products: a copy of a demo product (its type, facets, gallery, specs, size guide), released on another day.
  statements.push(`${productPairs(count.products)}
INSERT INTO products (id, type_id, slug, image, featured, position, gallery, specs, size_guide, discipline, frame_material, electric, released_on, updated_at)
SELECT pairs.id, p.type_id, p.slug || '-s' || pairs.k, p.image, 0, 1000 + pairs.k, p.gallery, p.specs, p.size_guide, p.discipline,
       p.frame_material, p.electric, date(COALESCE(p.released_on, '2026-01-01'), '-' || (pairs.k % 900) || ' days'), p.updated_at
  FROM pairs JOIN products p ON p.id = pairs.base;`)
  // Its name in every locale of the demo product's, with its series number.
  statements.push(`${productPairs(count.products)}
INSERT INTO product_names (product_id, locale, name, tagline, description, specs)
SELECT pairs.id, pn.locale, pn.name || ' S' || pairs.k, pn.tagline, pn.description, pn.specs
  FROM pairs JOIN product_names pn ON pn.product_id = pairs.base;`)
  statements.push(`${productPairs(count.products)}
INSERT INTO product_variants (sku, product_id, position, size, colour, availability, stock)
SELECT v.sku || '-S' || pairs.k, pairs.id, v.position, v.size, v.colour, v.availability, v.stock
  FROM pairs JOIN product_variants v ON v.product_id = pairs.base;`)
  // Prices per market, a little apart from the demo product's.
  statements.push(`${productPairs(count.products)}
INSERT INTO product_prices (product_id, site, amount)
SELECT pairs.id, pp.site, pp.amount + (pairs.k % 7) * 1000 FROM pairs JOIN product_prices pp ON pp.product_id = pairs.base;`)
  // The variants' prices a few hundred products a statement: each row's triggers refresh its listing rows, and one
  // statement for 2,000 products (160,000 rows) outlasts what local D1 lets a statement take.
  for (let from = 1; from <= count.products; from += PRODUCTS_A_STATEMENT)
    statements.push(`${productPairs(Math.min(count.products, from + PRODUCTS_A_STATEMENT - 1), from)}
INSERT INTO product_variant_prices (sku, site, amount)
SELECT v.sku || '-S' || pairs.k, vp.site, vp.amount + (pairs.k % 7) * 1000
  FROM pairs JOIN product_variants v ON v.product_id = pairs.base JOIN product_variant_prices vp ON vp.sku = v.sku;`)

  // Articles: the demo's, each round a week further back, a story's translations still one story.
  statements.push(`WITH RECURSIVE ${counter(count.articles)}, ${demoRows('news', FIRST.news)},
  pairs AS (SELECT ${FIRST.news} + k AS id, b.id AS base, (k - 1) / cnt.c + 1 AS round FROM n, cnt JOIN base b ON b.rn = (k - 1) % cnt.c + 1)
INSERT INTO news (id, slug, story, scope, locale, title, excerpt, blocks, image, published_at, products, body, updated_at)
SELECT pairs.id, s.slug || '-r' || pairs.round, CASE WHEN s.story IS NULL THEN NULL ELSE s.story || '-r' || pairs.round END,
       s.scope, s.locale, s.title, s.excerpt, s.blocks, s.image, date(s.published_at, '-' || (pairs.round * 7) || ' days'),
       s.products, s.body, date(s.published_at, '-' || (pairs.round * 7) || ' days') || 'T08:00:00Z'
  FROM pairs JOIN news s ON s.id = pairs.base;`)

  // Dealers: a copy of a demo dealer (its address, hours, services, translations), moved up to ~40 km from it.
  const random = prng(31 * scale + 7)
  const rows = []
  for (let k = 1; k <= count.dealers; k++) {
    const base = 1 + Math.floor(random() * dealers.length)
    const dLat = ((random() - 0.5) * 0.7).toFixed(5)
    const dLng = ((random() - 0.5) * 0.9).toFixed(5)
    rows.push(`(${FIRST.dealer + k}, ${k}, ${base}, ${dLat}, ${dLng})`)
  }
  for (let i = 0; i < rows.length; i += 2000) {
    statements.push(`WITH g(id, k, base, dlat, dlng) AS (VALUES ${rows.slice(i, i + 2000).join(', ')})
INSERT INTO dealers (id, slug, site, name, address, postal_code, city, region, country_code, lat, lng, phone, email, website, sales, service, test_rides, hours, translations, updated_at)
SELECT g.id, d.slug || '-' || g.k, d.site, d.name || ' ' || g.k, d.address, d.postal_code, d.city, d.region, d.country_code,
       round(d.lat + g.dlat, 5), round(d.lng + g.dlng, 5), d.phone, d.email, d.website, (g.k % 5) > 0, d.service, (g.k % 3) > 0,
       d.hours, d.translations, d.updated_at
  FROM g JOIN dealers d ON d.id = g.base;`)
  }

  // Customers, each with a default address (in Italy, where the demo customer buys) and a confirmed e-mail address.
  const many = MANY_ORDERS_CUSTOMER
  statements.push(`WITH RECURSIVE ${counter(count.customers)}
INSERT INTO users (id, email, first_name, last_name, phone, locale, password_hash, created_at, email_confirmed_at, demo)
SELECT ${FIRST.user} + k, CASE WHEN k = 1 THEN ${text(many.email)} ELSE 'rider' || k || '@scale.example' END,
       ${pick(FIRST_NAMES, 'k')}, ${pick(LAST_NAMES, 'k / 3')}, '+39 02 555 ' || printf('%04d', k % 10000), 'it',
       ${text(SCALE_PASSWORD_HASH)}, '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', 1
  FROM n;`)
  statements.push(`INSERT INTO addresses (user_id, label, first_name, last_name, line1, postal_code, city, region, country_code, phone, is_default)
SELECT id, 'Home', first_name, last_name, 'Via Roma ' || (id % 200 + 1), printf('%05d', 20100 + id % 80), 'Milano', 'MI', 'IT', phone, 1
  FROM users WHERE id > ${FIRST.user};`)

  // Orders: the many-orders customer's 500, then the rest over the other customers; one line each, a demo product.
  const orderOf = (
    owner,
  ) => `INSERT INTO orders (id, code, user_id, market, status, currency, subtotal, shipping, tax, total, billing_address, shipping_address,
  delivery_method, tracking_code, payment_method, payment_state, placed_at, locale)
SELECT ${FIRST.order} + k, 'AUR-' || (${FIRST.order} + k), u.id, 'it-it',
       CASE WHEN k % 10 = 0 THEN 'processing' WHEN k % 23 = 0 THEN 'cancelled' ELSE 'delivered' END, 'EUR',
       pp.amount, 0, pp.amount * 22 / 122, pp.amount, a.address, a.address, 'home', 'BRT' || (1000000 + k), 'card',
       CASE WHEN k % 23 = 0 THEN 'failed' ELSE 'paid' END,
       strftime('%Y-%m-%dT%H:%M:%SZ', '2026-11-01', '-' || (k * 37 % 1000) || ' days', '-' || (k % 600) || ' minutes'), 'it'
  FROM n JOIN users u ON u.id = ${owner}
  JOIN product_prices pp ON pp.product_id = (k % 14) + 1 AND pp.site = 'it'
  JOIN (SELECT user_id, json_object('first_name', first_name, 'last_name', last_name, 'company', NULL, 'line1', line1,
          'line2', NULL, 'postal_code', postal_code, 'city', city, 'region', region, 'country_code', country_code, 'phone', phone) AS address
          FROM addresses WHERE user_id > ${FIRST.user}) a ON a.user_id = u.id;`
  statements.push(`WITH RECURSIVE ${counter(many.orders)}\n${orderOf(many.id)}`)
  const others = count.customers - 1
  statements.push(
    `WITH RECURSIVE n(k) AS (SELECT ${many.orders + 1} UNION ALL SELECT k + 1 FROM n WHERE k < ${count.orders})\n${orderOf(`${FIRST.user + 2} + (k % ${others})`)}`,
  )
  statements.push(`INSERT INTO order_items (order_id, position, product_id, name, variant, sku, quantity, unit_price)
SELECT o.id, 0, p.id, pn.name, v.size || ' · ' || v.colour, v.sku, 1, o.subtotal
  FROM orders o JOIN products p ON p.id = (o.id - ${FIRST.order}) % 14 + 1
  JOIN product_names pn ON pn.product_id = p.id AND pn.locale = 'it'
  LEFT JOIN product_variants v ON v.product_id = p.id AND v.position = 0
 WHERE o.id > ${FIRST.order};`)
  for (const [status, when] of [
    ['pending_payment', "'+0 minutes'"],
    ['paid', "'+2 minutes'"],
  ])
    statements.push(`INSERT INTO order_events (order_id, status, at)
SELECT id, '${status}', strftime('%Y-%m-%dT%H:%M:%SZ', placed_at, ${when}) FROM orders WHERE id > ${FIRST.order} AND payment_state = 'paid';`)
  statements.push(`INSERT INTO order_events (order_id, status, at)
SELECT id, status, strftime('%Y-%m-%dT%H:%M:%SZ', placed_at, '+3 days') FROM orders WHERE id > ${FIRST.order} AND status <> 'pending_payment';`)

  // Leads over the markets and the form kinds, two years of them, half handled.
  statements.push(`WITH RECURSIVE ${counter(count.leads)}, markets AS (SELECT slug, ROW_NUMBER() OVER (ORDER BY id) AS rn FROM sites WHERE slug <> 'int'),
  m AS (SELECT COUNT(*) AS c FROM markets)
INSERT INTO form_submissions (id, reference, submission_key, kind, site, locale, email, fields, created_at, handled_at)
SELECT ${FIRST.lead} + k, 'SC-' || printf('%06d', k), 'scale-lead-' || k, ${pick(LEAD_KINDS, 'k')}, s.slug,
       COALESCE((SELECT locale FROM site_locales l JOIN sites x ON x.id = l.site_id WHERE x.slug = s.slug ORDER BY l.position LIMIT 1), 'en'),
       'lead' || k || '@scale.example',
       json_object('first_name', ${pick(FIRST_NAMES, 'k')}, 'last_name', ${pick(LAST_NAMES, 'k / 5')}, 'email', 'lead' || k || '@scale.example',
                   'message', 'Request ' || k),
       strftime('%Y-%m-%dT%H:%M:%fZ', '2026-11-20', '-' || (k * 13 % 730) || ' days', '-' || (k % 1440) || ' minutes'),
       CASE WHEN k % 2 = 0 THEN strftime('%Y-%m-%dT%H:%M:%fZ', '2026-11-21') END
  FROM n, m JOIN markets s ON s.rn = k % m.c + 1;`)
  // The mails those leads and orders sent, all sent.
  statements.push(`WITH RECURSIVE ${counter(count.mails)}
INSERT INTO outbox (recipient, subject, body, kind, created_at, sent_at)
SELECT 'rider' || k || '@scale.example', 'Your order AUR-' || (${FIRST.order} + k), 'Thank you for your order.', 'order_confirmation',
       strftime('%Y-%m-%dT%H:%M:%fZ', '2026-11-20', '-' || k || ' hours'), strftime('%Y-%m-%dT%H:%M:%fZ', '2026-11-20', '-' || k || ' hours', '+1 minutes')
  FROM n;`)
  // Whistleblower cases over the years: what the list shows (their sealed parts are placeholders no list opens).
  statements.push(`WITH RECURSIVE ${counter(count.cases)}
INSERT INTO whistleblower_reports (receipt_code, submission_key, passphrase_hash, site, locale, category, anonymous, wrapped_key, sealed_report, state, received_at, acknowledged_at, closed_at)
SELECT 'WB-SCXE-' || printf('%04d', k) || '-0000-' || printf('%04d', k % 10000), 'scale-case-' || k, 'none', 'it', 'it',
       ${pick(['fraud_corruption', 'product_safety', 'environment', 'data_protection', 'harassment_discrimination', 'other'], 'k')},
       k % 2, 'scale', 'scale', CASE WHEN k % 4 = 0 THEN 'closed' WHEN k % 4 = 1 THEN 'received' ELSE 'acknowledged' END,
       strftime('%Y-%m-%dT%H:%M:%fZ', '2026-11-20', '-' || (k * 3) || ' days'),
       CASE WHEN k % 4 <> 1 THEN strftime('%Y-%m-%dT%H:%M:%fZ', '2026-11-20', '-' || (k * 3 - 2) || ' days') END,
       CASE WHEN k % 4 = 0 THEN strftime('%Y-%m-%dT%H:%M:%fZ', '2026-11-20', '-' || (k * 3 - 30) || ' days') END
  FROM n;`)
  return statements
}

/**
 * scripts/reindex-search.sql's statements (its text given: Node reads the file, a workerd test imports it), to run
 * after the rows are in: the search index then holds the generated products, articles and dealers too.
 */
export const reindexStatements = (sqlText) =>
  sqlText
    .replace(/--.*$/gm, '')
    .split(';')
    .map((sql) => sql.trim())
    .filter(Boolean)
    .map((sql) => `${sql};`)
