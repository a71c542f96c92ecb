import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import demo from '../../demo/content/dealers.json' with { type: 'json' }
import reindexSql from '../../scripts/reindex-search.sql?raw'
import { MANY_ORDERS_CUSTOMER, reindexStatements, scaleCounts, scaleStatements } from '../../scripts/scale/generate.mjs'
import { requestLinesOf } from '../fixtures/request-lines'
import { cookieHeader, logIn } from '../fixtures/session'
import { clearCaches, visit } from '../fixtures/worker'

/**
 * The scale generator (scripts/scale/generate.mjs, issue 31) at 1×, on the demo data: the same statements every run,
 * the counts it names, and its rows render as the demo's do — a product, an article and a dealer it made, in an LTR
 * and an RTL market, the search finding them, the customer with 500 orders signing in. 10× runs in
 * tests/integration/rows-read.test.ts.
 */
beforeAll(async () => {
  for (const sql of [...scaleStatements(1, demo), ...reindexStatements(reindexSql)]) await env.DB.prepare(sql).run()
})

const slugOf = async (sql: string) => ((await env.DB.prepare(sql).first<{ slug: string }>()) ?? { slug: '' }).slug

describe('the scale generator at 1× (issue 31)', () => {
  it('makes the same statements every run, a seed of its own per scale', () => {
    expect(scaleStatements(1, demo)).toEqual(scaleStatements(1, demo))
    expect(scaleStatements(10, demo)).not.toEqual(scaleStatements(1, demo))
  })

  it('adds the rows it names: products, articles, dealers, customers with orders, leads, cases, mails', async () => {
    const counted = await env.DB.prepare(
      `SELECT (SELECT COUNT(*) FROM products WHERE id > 1000) AS products, (SELECT COUNT(*) FROM news WHERE id > 1000) AS articles,
              (SELECT COUNT(*) FROM dealers WHERE id > 100000) AS dealers, (SELECT COUNT(*) FROM users WHERE id > 100000) AS customers,
              (SELECT COUNT(*) FROM orders WHERE id > 100000) AS orders, (SELECT COUNT(*) FROM form_submissions WHERE id > 100000) AS leads,
              (SELECT COUNT(*) FROM whistleblower_reports WHERE submission_key LIKE 'scale-case-%') AS cases,
              (SELECT COUNT(*) FROM outbox WHERE recipient LIKE '%@scale.example') AS mails`,
    ).first()
    expect(counted).toEqual(scaleCounts(1))
  })

  it("renders a generated product in it-it and il-he, with its price and its name in the page's language", async () => {
    const italian = await visit('/it-it/products/aurora-strada-9-s1')
    expect(italian.status).toBe(200)
    expect(italian.text).toContain('Aurora Strada 9 S1')
    expect(italian.text).toMatch(/class="buy-bar-price">[^<]*\d,\d{2}\u00a0€</)
    const hebrew = await visit('/il-he/products/aurora-strada-9-s1')
    expect(hebrew.status).toBe(200)
    expect(hebrew.text).toContain('dir="rtl"')
  })

  it('renders a generated article and dealer, and the search finds generated products', async () => {
    const article = await slugOf("SELECT slug FROM news WHERE id > 1000 AND locale = 'it' ORDER BY id LIMIT 1")
    expect((await visit(`/it-it/news/details/${article}`)).status).toBe(200)
    const dealer = await slugOf("SELECT slug FROM dealers WHERE id > 100000 AND site = 'it' ORDER BY id LIMIT 1")
    expect((await visit(`/it-it/dealers/${dealer}`)).status).toBe(200)
    const search = await visit('/it-it/search/all?q=strada')
    expect(search.status).toBe(200)
    expect(search.text).toContain('Aurora Strada 9 S1')
  })

  it("signs the customer with 500 orders in (the line counts the rows the login read and wrote); their orders' pages answer", async () => {
    let session = ''
    const [login] = await requestLinesOf(async () => {
      session = await logIn(MANY_ORDERS_CUSTOMER)
    })
    expect(login?.rowsRead).toBeGreaterThan(0)
    expect(login?.rowsWritten).toBeGreaterThan(0)
    const cookie = cookieHeader(session)
    const orders = await visit('/it-it/my-account/orders', { headers: cookie })
    expect(orders.status).toBe(200)
    expect(orders.text).toMatch(/AUR-1\d{5}/)
  })

  it('writes in the log line the largest value a request stored in KV (its cached lookups, cold)', async () => {
    await clearCaches()
    const [line] = await requestLinesOf(() => visit('/it-it/products/aurora-strada-9-s1'))
    expect(line?.kvLargestPut).toBeGreaterThan(1000)
    expect(line?.kvLargestPut).toBeLessThan(1024 * 1024)
  })
})
