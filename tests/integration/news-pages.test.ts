import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import { NEWS_PER_PAGE } from '../../src/cache/lookups'
import { clearCaches, visit } from '../fixtures/worker'

/** Articles written for these tests in Slovenian (Slovenia's market and every Slovenian one), some at one moment. */
const ARTICLES = 800
const PER_PAGE = 12

/** Inserts `count` articles in `sl`, numbered from `from`: every fifth for Slovenia only, every seventh for Croatia. */
async function write(from: number, count: number) {
  const statements = Array.from({ length: count }, (_, i) => {
    const n = from + i
    const scope = n % 7 === 0 ? 'hr' : n % 5 === 0 ? 'si' : '*'
    // Three articles share each minute: the id keeps their order.
    const minute = Math.floor(n / 3)
    const at = new Date(Date.UTC(2024, 0, 1, 0, minute)).toISOString().replace('.000', '')
    return env.DB.prepare(
      'INSERT INTO news (slug, scope, locale, title, excerpt, published_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).bind(`zgodba-${n}`, scope, 'sl', `Zgodba ${n}`, '', at)
  })
  for (let i = 0; i < statements.length; i += 200) await env.DB.batch(statements.slice(i, i + 200))
}

/** The page as the index answered it before marks: an OFFSET over the market's articles. */
async function byOffset(scope: string, page: number) {
  const { results } = await env.DB.prepare(
    `SELECT id, slug FROM news WHERE locale = 'sl' AND scope IN ('*', ?) ORDER BY published_at DESC, id DESC
      LIMIT ? OFFSET ?`,
  )
    .bind(scope, PER_PAGE, (page - 1) * PER_PAGE)
    .all<{ id: number; slug: string }>()
  const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM news WHERE locale = 'sl' AND scope IN ('*', ?)")
    .bind(scope)
    .first<{ n: number }>()
  return { slugs: results.map((row) => row.slug), total: count?.n }
}

/** D1 with the rows every statement read summed (from D1's own result metadata). */
function countingDb() {
  const counted = { rowsRead: 0 }
  const add = (meta: { rows_read?: number } | undefined) => {
    counted.rowsRead += meta?.rows_read ?? 0
  }
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, name) {
        if (name === 'bind') return (...values: unknown[]) => wrap(target.bind(...values))
        if (name === 'all' || name === 'run')
          return async () => {
            const result = await (name === 'all' ? target.all() : target.run())
            add(result.meta)
            return result
          }
        if (name === 'first')
          return async () => {
            const result = await target.all()
            add(result.meta)
            return result.results[0] ?? null
          }
        const value = Reflect.get(target, name)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  const DB = new Proxy(env.DB, {
    get(target, name) {
      if (name === 'prepare') return (sql: string) => wrap(target.prepare(sql))
      const value = Reflect.get(target, name)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { DB, counted }
}

/** `GET api/front/news?page=` of a market in Slovenian, with the rows it read. */
async function newsApi(site: string, page: number) {
  const { DB, counted } = countingDb()
  const request = new Request(`http://embedded.invalid/api/front/news?page=${page}&per_page=${PER_PAGE}`, {
    headers: { 'X-Tenant': site, 'X-Locale': 'sl' },
  })
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], { ...env, DB })
  const body = (await response.json()) as { data: Array<{ slug: string }>; meta: { total: number } }
  return { slugs: body.data.map((a) => a.slug), total: body.meta.total, rowsRead: counted.rowsRead }
}

describe("the news index's pages", () => {
  beforeAll(async () => {
    await write(1, ARTICLES)
  })

  it('answers page N as the OFFSET did, asked in any order, in each market of the locale', async () => {
    for (const site of ['si', 'hr']) {
      const last = Math.ceil(((await byOffset(site, 1)).total ?? 0) / PER_PAGE)
      expect(last).toBeGreaterThan(50)
      for (const page of [50, 1, 2, 49, 51, 3, last, last + 1, 50, 17, 2]) {
        const expected = await byOffset(site, page)
        const answer = await newsApi(site, page)
        expect(answer.slugs, `${site} page ${page}`).toEqual(expected.slugs)
        expect(answer.total).toBe(expected.total)
      }
    }
  })

  it("reads page 50's own articles, not the 49 pages before it", async () => {
    await newsApi('si', 50)
    const again = await newsApi('si', 50)
    expect(again.slugs).toHaveLength(PER_PAGE)
    // Its mark and its twelve articles (and the odd Croatian one between them): not 600 rows.
    expect(again.rowsRead).toBeLessThan(3 * PER_PAGE)
    const next = await newsApi('si', 51)
    expect(next.rowsRead).toBeLessThan(5 * PER_PAGE)
  })

  it('forgets the marks when the news changes: a new article moves every page by one', async () => {
    const before = await newsApi('si', 50)
    await write(ARTICLES + 1, 1)
    const after = await newsApi('si', 50)
    expect(after.slugs).toEqual((await byOffset('si', 50)).slugs)
    expect(after.slugs[1]).toBe(before.slugs[0])
    expect(after.total).toBe(before.total + 1)
    await env.DB.prepare("DELETE FROM news WHERE slug = 'zgodba-3'").run()
    expect((await newsApi('si', 50)).slugs).toEqual((await byOffset('si', 50)).slugs)
  })

  it('keeps the public ?page=N of the news index', async () => {
    await clearCaches()
    const { status, text } = await visit('/si-sl/news?page=50')
    expect(status).toBe(200)
    const { results } = await env.DB.prepare(
      `SELECT slug FROM news WHERE locale = 'sl' AND scope IN ('*', 'si') ORDER BY published_at DESC, id DESC
        LIMIT ? OFFSET ?`,
    )
      .bind(NEWS_PER_PAGE, 49 * NEWS_PER_PAGE)
      .all<{ slug: string }>()
    expect(results).toHaveLength(NEWS_PER_PAGE)
    const shown = [...text.matchAll(/href="\/si-sl\/news\/details\/([a-z0-9-]+)"/g)].map((m) => m[1])
    expect([...new Set(shown)]).toEqual(results.map((row) => row.slug))
  })
})
