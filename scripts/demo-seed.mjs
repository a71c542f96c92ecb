// The embedded API's demo data as SQL statements, built from demo/ (markets, translations, content) and the
// product's own English texts. Idempotent (INSERT OR REPLACE); loaded by `npm start` and the tests, never by a
// migration, so it cannot reach a production database through `wrangler d1 migrations apply --remote`.
import { pbkdf2Sync, randomBytes } from 'node:crypto'
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { richText } from './rich-text.mjs'
import { plainText, specParts } from './spec-items.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const readJson = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'))

/** The page keys of the demo, in the order of their ids. */
export const PAGE_KEYS = [
  'home',
  'landing',
  'about-us',
  'contact-us',
  'test-drive',
  'become-a-dealer',
  'become-a-distributor',
  'work-with-us',
  'dealer-locator',
  'privacy-policy',
  // The trust and legal pages (issue 12, item 8); terms of sale and delivery only where the market sells online.
  'cookie-policy',
  'terms-of-sale',
  'legal-notice',
  'warranty',
  'delivery-returns',
]

const DEFAULT_PAGE_LINKS = Object.fromEntries(PAGE_KEYS.slice(2).map((key) => [key, key]))

/**
 * A market's page slugs in one of its locales: the language's own (demo/page-slugs.json), then the market's own
 * choices (demo/markets.json: `pageLinks` for every locale of the market, `pageLinksByLocale` for one), over the
 * English defaults. The site-wide `page_links` are its first locale's (what clients that know only `pageLinks` use).
 */
export function demoPageLinks(market, locale) {
  const language = readJson('demo/page-slugs.json')[locale] ?? {}
  return { ...DEFAULT_PAGE_LINKS, ...language, ...market.pageLinks, ...market.pageLinksByLocale?.[locale] }
}

const DEFAULT_SETTINGS = {
  under_maintenance: false,
  test_ride_inquiry: true,
  become_a_partner: true,
  work_with_us: true,
  facebook_pixel_code: null,
  google_analytics: { integrate: false, app_id: null },
  google_tag_manager: null,
  intercom: { integrate: false, app_id: null },
  microsoft_clarity: { integrate: false, key: null },
  // The whistleblower channel (docs/api.md "Whistleblower channel"): anonymous reports taken, no national authority named.
  whistleblower_anonymous: true,
  whistleblower_external_channel: null,
  // Buying online (docs/api.md "Market settings"): off unless the market says so in demo/markets.json's `commerce`.
  sells_online: false,
  vat: { rate: null, included: true },
  shipping: null,
}

/** A variant's stock when the demo names none: enough to buy where it is in stock, a few where low, none where out. */
const STOCK_BY_AVAILABILITY = { in_stock: 25, low_stock: 3, out_of_stock: 0, preorder: 10 }

/** When the demo's products, pages and dealers last changed (a sitemap's lastmod): fixed, so a restart changes nothing. */
const DEMO_UPDATED_AT = '2026-11-02T08:00:00Z'

const FEATURES = [
  ['customer_login', 'Customer login and account'],
  ['search', 'Site search'],
  ['dealer_locator', 'Dealer locator'],
  ['checkout', 'Checkout'],
]

/**
 * Who receives each market's lead forms: its own sales and contact desks; partner and job applications go to the
 * brand's teams (the international site's), except where a market has its own.
 */
function recipientsOf(market) {
  const own = (desk) => `${desk}.${market.slug}@aurora-cycles.example`
  return market.slug === 'int'
    ? {
        sales: 'sales@aurora-cycles.example',
        partner: 'partners@aurora-cycles.example',
        jobs: 'jobs@aurora-cycles.example',
        contact: 'hello@aurora-cycles.example',
      }
    : { sales: own('sales'), contact: own('hello'), ...(market.slug === 'de' ? { jobs: own('jobs') } : {}) }
}

/** The demo customers (credentials in the README, for local use only). The second one proves isolation. */
export const DEMO_CUSTOMERS = [
  {
    id: 1,
    email: 'customer@example.com',
    password: 'Demo-Rider-2026!',
    first_name: 'Giulia',
    last_name: 'Rossi',
    phone: '+39 035 555 0101',
    locale: 'it',
  },
  {
    id: 2,
    email: 'second@example.com',
    password: 'Second-Rider-2026!',
    first_name: 'Lukas',
    last_name: 'Meyer',
    phone: '+49 30 555 0102',
    locale: 'de',
  },
]

/**
 * The demo staff of the console (`/_console`), one per role. For local use only: their passwords and TOTP secrets
 * (base32, what an authenticator app or `oathtool --totp -b SECRET` takes) are in docs/console.md.
 */
export const DEMO_STAFF = [
  {
    id: 1,
    role: 'case_handler',
    email: 'cases@aurora-cycles.example',
    name: 'Chiara Conti',
    password: 'Demo-Cases-2026!',
    totp_secret: 'AURORACASESDEMOKEY234567',
  },
  {
    id: 2,
    role: 'editor',
    email: 'editor@aurora-cycles.example',
    name: 'Erik Lund',
    password: 'Demo-Editor-2026!',
    totp_secret: 'AURORAEDITORDEMOKEY23456',
  },
]

/** The embedded API's password format (reference-api/passwords.ts): PBKDF2-SHA256, 100 000 iterations, random salt. */
function passwordHash(password) {
  const salt = randomBytes(16)
  const hash = pbkdf2Sync(password, salt, 100_000, 32, 'sha256')
  return `pbkdf2-sha256$100000$${salt.toString('base64')}$${hash.toString('base64')}`
}

/** Per-country wording over a locale's texts (the translations table's scope). */
const OVERRIDES = [['us', 'en', 'footer.market', 'You are visiting the U.S. site.']]

const sql = (value) => {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'number') return String(value)
  if (typeof value === 'boolean') return value ? '1' : '0'
  return `'${String(value).replaceAll("'", "''")}'`
}
/**
 * One row to insert: its statement's head (table, columns, conflict rule) and its values. `batched` joins the rows of
 * one head that follow each other into multi-row statements.
 */
const insert = (table, row, conflict = 'REPLACE') => ({
  head: `INSERT OR ${conflict} INTO ${table} (${Object.keys(row).join(', ')}) VALUES`,
  values: `(${Object.values(row).map(sql).join(', ')})`,
})
/** Customers' rows are loaded once and then belong to the customer: a restart never undoes their changes. */
const insertOnce = (table, row) => insert(table, row, 'IGNORE')

function flatten(messages, prefix = '') {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'string' ? [[prefix + key, value]] : flatten(value, `${prefix}${key}.`),
  )
}

/** Every locale's messages: English from the Worker's own texts, the others from demo/messages. */
export function demoMessages() {
  const messages = { en: readJson('src/i18n/en.json') }
  for (const file of readdirSync(join(root, 'demo/messages')).filter((f) => f.endsWith('.json'))) {
    messages[file.slice(0, -5)] = readJson(`demo/messages/${file}`)
  }
  return messages
}

/** The demo markets (demo/markets.json) as the embedded API stores them. */
export function demoMarkets() {
  return readJson('demo/markets.json')
}

/**
 * D1 refuses a statement over 100 KB: a multi-row insert is cut well below that. A few dozen statements load the
 * demo instead of one per row (11,768), the same rows in the same order.
 */
const STATEMENT_BYTES = 90_000

/** Rows and raw statements as SQL statements: consecutive rows of one head joined into multi-row inserts. */
function batched(items) {
  const statements = []
  let head = null
  let rows = []
  let bytes = 0
  const flush = () => {
    if (rows.length) statements.push(`${head} ${rows.join(', ')};`)
    rows = []
    bytes = 0
  }
  for (const item of items) {
    if (typeof item === 'string') {
      flush()
      statements.push(item)
      continue
    }
    const size = Buffer.byteLength(item.values) + 2
    if (item.head !== head || bytes + size > STATEMENT_BYTES) flush()
    if (!rows.length) bytes = Buffer.byteLength(item.head)
    head = item.head
    rows.push(item.values)
    bytes += size
  }
  flush()
  return statements
}

/** All statements of the demo data, in an order that satisfies the foreign keys. */
export function demoSeedStatements() {
  return batched(demoSeedRows())
}

/** The demo data as rows to insert (and the few raw statements between them), in the order of the foreign keys. */
function demoSeedRows() {
  const statements = []
  demoMarkets().forEach((market, index) => {
    const id = index + 1
    statements.push(
      insert('sites', {
        id,
        slug: market.slug,
        name: market.name,
        country_code: market.country_code,
        region: market.region,
        currency: market.currency.code,
        currency_token: market.currency.token,
        currency_place: market.currency.place,
        settings: JSON.stringify({
          ...DEFAULT_SETTINGS,
          google_tag_manager: market.gtm,
          form_recipients: recipientsOf(market),
          ...market.commerce,
          ...market.settings,
        }),
        page_links: JSON.stringify(demoPageLinks(market, market.locales[0])),
        centre_lat: market.centre[0],
        centre_lng: market.centre[1],
        position: id,
      }),
    )
    statements.push(
      ...market.locales.map((locale, position) =>
        insert('site_locales', {
          site_id: id,
          locale,
          url: `/${market.slug}-${locale}`,
          position,
          page_links: JSON.stringify(demoPageLinks(market, locale)),
        }),
      ),
    )
  })

  for (const [locale, messages] of Object.entries(demoMessages())) {
    for (const [key, value] of flatten(messages))
      statements.push(insert('translations', { scope: '*', locale, key, value }))
  }
  for (const [scope, locale, key, value] of OVERRIDES)
    statements.push(insert('translations', { scope, locale, key, value }))

  for (const [key, name] of FEATURES) statements.push(insert('features', { key, name, enabled: 1 }))

  const pages = readJson('demo/content/pages.json')
  PAGE_KEYS.forEach((key, index) => {
    const id = index + 1
    statements.push(insert('pages', { id, key }))
    for (const [locale, page] of Object.entries(pages[key] ?? {})) {
      statements.push(
        insert('page_contents', {
          page_id: id,
          locale,
          title: page.title,
          summary: page.summary ?? '',
          blocks: JSON.stringify(page.blocks ?? []),
          updated_at: DEMO_UPDATED_AT,
        }),
      )
      if (page.seo) {
        statements.push(
          insert('seo_records', {
            model_type: 'Page',
            model_id: id,
            locale,
            meta_name: page.seo.meta_name ?? page.title,
            meta_description: page.seo.meta_description,
            meta_keywords: page.seo.meta_keywords,
            page_title: page.seo.page_title,
            og_title: page.seo.og_title,
            og_description: page.seo.og_description,
            og_image: page.seo.og_image,
            og_image_alt: page.seo.og_image_alt,
          }),
        )
      }
    }
  })

  const catalogue = readJson('demo/content/products.json')
  catalogue.types.forEach((type, position) => {
    statements.push(
      insert('product_types', {
        id: type.id,
        slug: type.slug,
        position,
        registrable: type.registrable ? 1 : 0,
        warranty_years: type.warranty_years ?? 2,
      }),
    )
    for (const [locale, name] of Object.entries(type.names)) {
      statements.push(insert('product_type_names', { type_id: type.id, locale, name }))
    }
  })
  const details = readJson('demo/content/catalogue.json')
  const phrases = readJson('demo/content/spec-phrases.json')
  const geometry = readJson('demo/content/frame-geometry.json')
  catalogue.products.forEach((product, position) => {
    const detail = details[product.slug] ?? {}
    const specsIn = (locale) =>
      (detail.specs ?? []).map(({ key, items }) => ({ key, parts: specParts(items, phrases, locale) }))
    // A bicycle's size guide: its frame family's sizes, those the product comes in.
    const sizes = new Set((detail.variants ?? []).map((variant) => variant.size))
    const sizeGuide = detail.frame_family ? geometry[detail.frame_family].filter((row) => sizes.has(row.size)) : null
    statements.push(
      insert('products', {
        id: product.id,
        type_id: product.type_id,
        slug: product.slug,
        image: product.image,
        featured: product.featured ? 1 : 0,
        position,
        discipline: product.discipline ?? null,
        frame_material: product.frame_material ?? null,
        electric: product.e_bike ? 1 : 0,
        released_on: product.released_on ?? null,
        gallery: JSON.stringify(detail.gallery ?? [product.image]),
        // The older English [key, text] pairs, still filled for their readers; the API serves product_names.specs.
        specs: JSON.stringify(specsIn('en').map(({ key, parts }) => [key, plainText(parts)])),
        size_guide: sizeGuide ? JSON.stringify(sizeGuide) : null,
        updated_at: DEMO_UPDATED_AT,
      }),
    )
    for (const [locale, { name, tagline }] of Object.entries(product.names)) {
      statements.push(
        insert('product_names', {
          product_id: product.id,
          locale,
          name,
          tagline: tagline ?? '',
          description: detail.description?.[locale] ?? '',
          specs: JSON.stringify(specsIn(locale)),
        }),
      )
    }
    const variants = detail.variants ?? []
    statements.push(
      ...variants.map(({ prices, not_sold_in, ...variant }, index) =>
        insert('product_variants', {
          ...variant,
          stock: variant.stock ?? STOCK_BY_AVAILABILITY[variant.availability] ?? 0,
          product_id: product.id,
          position: index,
        }),
      ),
    )
    for (const [site, amount] of Object.entries(detail.prices ?? {})) {
      statements.push(insert('product_prices', { product_id: product.id, site, amount }))
    }
    statements.push(...variantPriceStatements(detail.prices ?? {}, variants))
  })

  statements.push(...customerStatements())

  readJson('demo/content/news.json').forEach((article, index) => {
    statements.push(
      insert('news', {
        id: index + 1,
        slug: article.slug,
        story: article.story ?? null,
        scope: article.scope ?? '*',
        locale: article.locale,
        title: article.title,
        excerpt: article.excerpt ?? '',
        blocks: JSON.stringify(article.blocks ?? []),
        image: article.image ?? null,
        published_at: article.published_at,
        products: JSON.stringify(article.products ?? []),
        body: richText(article.blocks ?? []),
        updated_at: `${article.published_at}T08:00:00Z`,
      }),
    )
  })

  const { dealers, places } = readJson('demo/content/dealers.json')
  statements.push(
    ...dealers.map(({ services, hours, translations, ...dealer }, index) =>
      insert('dealers', {
        id: index + 1,
        ...dealer,
        ...boolFlags(services),
        hours: JSON.stringify(hours),
        translations: JSON.stringify(translations ?? {}),
        updated_at: DEMO_UPDATED_AT,
      }),
    ),
  )
  statements.push(
    ...places.map(({ names, aliases, ...place }, index) =>
      insert('places', {
        id: index + 1,
        ...place,
        names: JSON.stringify(names ?? {}),
        aliases: JSON.stringify(aliases ?? []),
      }),
    ),
  )
  // Places of an earlier, longer list of the demo go.
  statements.push(`DELETE FROM places WHERE id > ${places.length};`)

  // The markets' open positions (and a closed one), in each of the market's languages, in the order of the file.
  readJson('demo/content/jobs.json').forEach(({ id, site, open, contents }, position) => {
    statements.push(insert('jobs', { id, site, open: open ? 1 : 0, position }))
    for (const [locale, { title, place, summary }] of Object.entries(contents)) {
      statements.push(insert('job_contents', { job_id: id, locale, title, place, summary }))
    }
  })

  // Last: the search index, from everything above.
  statements.push(
    ...readFileSync(join(root, 'scripts/reindex-search.sql'), 'utf8')
      .replace(/--.*$/gm, '')
      .split(';')
      .map((sql) => sql.trim())
      .filter(Boolean)
      .map((sql) => `${sql};`),
  )
  return statements
}

/**
 * A product's variant prices: each variant is sold wherever the product is (but the markets of its `not_sold_in`), at
 * the product's price there unless its own `prices` say otherwise.
 */
function variantPriceStatements(productPrices, variants) {
  return variants.flatMap(({ sku, prices = {}, not_sold_in: notSoldIn = [] }) =>
    Object.entries(productPrices)
      .filter(([site]) => !notSoldIn.includes(site))
      .map(([site, amount]) => insert('product_variant_prices', { sku, site, amount: prices[site] ?? amount })),
  )
}

const boolFlags = (flags) => Object.fromEntries(Object.entries(flags).map(([key, on]) => [key, on ? 1 : 0]))

/** The demo customers with their addresses, bikes and orders (demo/customers.json). */
function customerStatements() {
  const statements = DEMO_CUSTOMERS.map(({ password, ...customer }) =>
    // The demo customers' addresses count as confirmed (migrations/0009_sign_up.sql): they can buy at once.
    insertOnce('users', {
      ...customer,
      password_hash: passwordHash(password),
      email_confirmed_at: '2026-01-01T00:00:00Z',
      demo: 1,
    }),
  )
  // Marked demo rows (migrations/0022_demo_rows.sql), also where an earlier seed loaded them unmarked: they sign in
  // only on this machine (docs/decisions/054).
  statements.push(
    `UPDATE users SET demo = 1 WHERE id IN (${DEMO_CUSTOMERS.map((customer) => customer.id).join(', ')});`,
  )
  // Loaded once: a restart keeps the last TOTP step used (a code stays good once) and the events that name them.
  for (const { password, ...member } of DEMO_STAFF)
    statements.push(insertOnce('staff_users', { ...member, password_hash: passwordHash(password), demo: 1 }))
  statements.push(`UPDATE staff_users SET demo = 1 WHERE id IN (${DEMO_STAFF.map((member) => member.id).join(', ')});`)
  for (const { user_id, addresses, bikes, orders } of readJson('demo/customers.json').customers) {
    for (const address of addresses) statements.push(insertOnce('addresses', { ...address, user_id }))
    for (const bike of bikes) statements.push(insertOnce('bikes', { ...bike, user_id }))
    for (const { items, events, billing_address, shipping_address, ...order } of orders) {
      const subtotal = items.reduce((sum, item) => sum + item.quantity * item.unit_price, 0)
      statements.push(
        insertOnce('orders', {
          ...order,
          user_id,
          subtotal,
          total: subtotal + order.shipping,
          billing_address: JSON.stringify(billing_address),
          shipping_address: shipping_address && JSON.stringify(shipping_address),
        }),
      )
      statements.push(
        ...items.map((item, position) => insertOnce('order_items', { ...item, order_id: order.id, position })),
      )
      for (const event of events) statements.push(insertOnce('order_events', { ...event, order_id: order.id }))
    }
  }
  return statements
}
