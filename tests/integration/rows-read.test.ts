import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import demo from '../../demo/content/dealers.json' with { type: 'json' }
import reindexSql from '../../scripts/reindex-search.sql?raw'
import { MANY_ORDERS_CUSTOMER, reindexStatements, scaleStatements } from '../../scripts/scale/generate.mjs'
import { PAGE_KINDS, type PageKind, type Visitor, pathOf, rowsBound, shownIn } from '../../scripts/scale/page-kinds.mjs'
import { consoleLogin } from '../fixtures/console'
import { requestLinesOf } from '../fixtures/request-lines'
import { cookieHeader, formPost, logIn } from '../fixtures/session'
import { forgetMemo } from '../../src/cache/swr'
import { clearCaches, visit } from '../fixtures/worker'

/**
 * D1 rows read per request as the brand grows (issue 31): every page kind and console list is requested with every
 * cache cold (the lookups' memo and KV, the page cache off), first on the demo data, then once the generator
 * (scripts/scale/generate.mjs) grew the same database to 10× — 200 products, 400 articles, 500 dealers, 10,000
 * customers with 30,000 orders (one with 500), 5,000 leads. What a page reads beyond the demo's figure may only be
 * what it shows more (a bound per kind: `shown` items, a few rows each, and a small constant); a page that reads a whole
 * large table (every order, every dealer, the whole catalogue) reads thousands more and fails. Rows read are D1's own
 * figures (`meta.rows_read`, reference-api/row-count.ts), summed per request in its log line.
 */

/**
 * Every page kind reads what it shows (issue 31; docs/decisions/072 and 077): the chrome every market page shares
 * reads the 8 products its menu names, each product's price and stock from its listing row in the market; a listing
 * reads its page by its ids; search ranks a window of each part of the index read in rowid order (decision 081), with
 * no count of every match; the locator reads the grid's cells as runs; the console's open cases are paged by keyset.
 */
const cookies: Partial<Record<Visitor, string>> = {}
let checkoutCode = ''

/** Signs the visitors in (the customer with 500 orders once the data is grown; the demo customer before). */
async function signIn(customer: { email: string; password: string }) {
  cookies.customer = cookieHeader(await logIn(customer)).Cookie
  cookies.case_handler = await consoleLogin('case_handler')
  cookies.editor = await consoleLogin('editor')
  checkoutCode = await reviewedCheckout(cookies.customer)
}

/** A cart with one bike (the site's own form), its checkout's choices made (home delivery to the saved address). */
async function reviewedCheckout(cookie: string): Promise<string> {
  const as = (path: string, init: RequestInit = {}) =>
    visit(path, { ...init, headers: { ...Object.fromEntries(new Headers(init.headers)), Cookie: cookie } })
  const added = await as(
    '/it-it/cart/items',
    formPost({
      sku: 'STR9-M-RED',
      quantity: '1',
      key: `rows-read-${Date.now()}-abcdefghijk`,
      product: 'aurora-strada-9',
    }),
  )
  expect(added.status).toBe(303)
  const cart = await as('/it-it/cart')
  const code = /\/it-it\/checkout\/([A-Za-z0-9_-]+)/.exec(cart.text)?.[1] ?? ''
  const form = await as(`/it-it/checkout/${code}`)
  const token = /name="form_token" value="([^"]+)"/.exec(form.text)?.[1] ?? ''
  const address = /name="ship_choice"[^>]*value="(\d+)"/.exec(form.text)?.[1] ?? ''
  const chosen = await as(
    `/it-it/checkout/${code}`,
    formPost({ delivery: 'home', ship_choice: address, billing_same: 'on', payment_method: 'card', form_token: token }),
  )
  expect(chosen.status, chosen.text.slice(0, 200)).toBe(303)
  return code
}

/** One request of a page kind with every cache cold: its status, D1 rows read and what it shows. */
async function coldRequest(kind: PageKind) {
  await clearCaches()
  const cookie = cookies[kind.visitor]
  let body = ''
  const [line] = await requestLinesOf(async () => {
    const page = await visit(
      pathOf(kind, 10, checkoutCode),
      { headers: cookie ? { Cookie: cookie } : {} },
      { PAGE_CACHE: 'off' },
    )
    body = page.text
  })
  return { status: line?.status ?? 0, rowsRead: line?.rowsRead ?? 0, shown: shownIn(kind, body) }
}

/** The locator's kinds, measured as the benchmark does besides: the chrome's lookups warm. */
const LOCATOR_KINDS = PAGE_KINDS.filter((kind) => kind.name.startsWith('dealer locator'))

/**
 * A locator request with the chrome's lookups warm and the nearest dealers not (a town's are cached, so forgotten):
 * the locator's own reads, and the dealers it listed.
 */
async function locatorRequest(kind: PageKind) {
  await coldRequest(kind)
  const nearest = (key: string) => key.includes(':dealers:near:')
  forgetMemo(nearest)
  for (const { name } of (await env.CACHE.list()).keys) if (nearest(name)) await env.CACHE.delete(name)
  let body = ''
  const [line] = await requestLinesOf(async () => {
    body = (await visit(pathOf(kind, 10), {}, { PAGE_CACHE: 'off' })).text
  })
  return { rowsRead: line?.rowsRead ?? 0, listed: body.match(/<li class="dealer-card">/g)?.length ?? 0 }
}

const locatorAtDemo = new Map<string, { rowsRead: number; listed: number }>()
const atDemo = new Map<string, number>()
const statusAt10 = new Map<string, number>()
let loadedInMs = 0

beforeAll(async () => {
  await signIn({ email: 'customer@example.com', password: 'Demo-Rider-2026!' })
  for (const kind of PAGE_KINDS) atDemo.set(kind.name, (await coldRequest(kind)).rowsRead)
  for (const kind of LOCATOR_KINDS) locatorAtDemo.set(kind.name, await locatorRequest(kind))
  const started = Date.now()
  for (const sql of [...scaleStatements(10, demo), ...reindexStatements(reindexSql)]) await env.DB.prepare(sql).run()
  loadedInMs = Date.now() - started
  await signIn(MANY_ORDERS_CUSTOMER)
}, 180_000)

describe('D1 rows read per request at 10× the demo (issue 31)', () => {
  it('the generator grows the demo to 10× in one go: 30,000 orders, 500 of them one customer’s', async () => {
    const counts = await env.DB.prepare(
      'SELECT (SELECT COUNT(*) FROM orders) AS orders, (SELECT COUNT(*) FROM orders WHERE user_id = ?) AS many, (SELECT COUNT(*) FROM products) AS products',
    )
      .bind(MANY_ORDERS_CUSTOMER.id)
      .first<{ orders: number; many: number; products: number }>()
    expect(counts).toEqual({ orders: 30_009, many: 500, products: 219 })
    console.info(`10× loaded in ${loadedInMs} ms`)
  })

  for (const kind of PAGE_KINDS) {
    it(`${kind.name}: reads no more than it shows more`, async () => {
      const { status, rowsRead, shown } = await coldRequest(kind)
      statusAt10.set(kind.name, status)
      const before = atDemo.get(kind.name) ?? 0
      const bound = rowsBound(shown)
      console.info(`${kind.name}: ${before} → ${rowsRead} rows read (shows ${shown}; bound +${bound})`)
      expect(status).toBe(200)
      expect(rowsRead - before, `${before} rows read on the demo, ${rowsRead} at 10×`).toBeLessThanOrEqual(bound)
    })
  }

  for (const kind of LOCATOR_KINDS) {
    it(`${kind.name}: reads the dealers it lists, on the demo and at 10× (decision 082)`, async () => {
      const atScale = await locatorRequest(kind)
      const atDemo = locatorAtDemo.get(kind.name) ?? { rowsRead: Number.NaN, listed: 0 }
      for (const [scale, { rowsRead, listed }] of [
        ['demo', atDemo],
        ['10×', atScale],
      ] as const) {
        console.info(`${kind.name}, lookups warm, ${scale}: ${rowsRead} rows read, ${listed} dealers listed`)
        expect(rowsRead, scale).toBeLessThanOrEqual(rowsBound(listed))
      }
      expect(atScale.listed).toBe(kind.shown)
    })
  }

  // After the kinds above (a file's tests run in order): their cold requests' statuses, whatever their rows.
  it('every page kind and console list answered 200 at 10×', () => {
    expect(Object.fromEntries(statusAt10)).toEqual(Object.fromEntries(PAGE_KINDS.map((kind) => [kind.name, 200])))
  })
})
