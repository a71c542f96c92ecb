import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import { WINDOWS } from '../../reference-api/resources/search'
import { countingRows } from '../../reference-api/row-count'

type Found = { data: Array<{ kind: string; slug: string; title: string }>; meta: { total: number } }

/** Searches the embedded API in-process as a market and language. */
async function search(words: string, locale: string, country = 'int'): Promise<Found> {
  const request = new Request(`http://embedded.invalid/api/front/search?q=${encodeURIComponent(words)}&type=news`, {
    headers: { 'X-Tenant': country, 'X-Locale': locale },
  })
  return (await (await api.fetch(request as Parameters<typeof api.fetch>[0], env)).json()) as Found
}

/** Writes an article for every market in a language: the index takes it from the write, with no rebuild. */
async function article(id: number, locale: string, title: string, excerpt = '') {
  await env.DB.prepare(
    "INSERT INTO news (id, slug, scope, locale, title, excerpt, published_at) VALUES (?, ?, '*', ?, ?, ?, '2026-11-01')",
  )
    .bind(id, `words-${id}`, locale, title, excerpt)
    .run()
}

const slugs = (found: Found) => found.data.map((result) => result.slug)

describe("search matches each language's words in its own way", () => {
  it('finds Greek words with or without their accents, in capitals too', async () => {
    await article(900001, 'el', 'Ποδήλατο δρόμου για αγώνες')
    for (const words of ['ποδήλατο', 'ποδηλατο', 'ΠΟΔΗΛΑΤΟ δρομου', 'αγωνες'])
      expect(slugs(await search(words, 'el')), words).toContain('words-900001')
  })

  it('finds a Hebrew word written with points by its plain letters, and the other way round', async () => {
    await article(900002, 'he', 'אוֹפַנַּיִם חַשְׁמַלִּיִּים לָעִיר')
    await article(900003, 'he', 'מבחן רכיבה בירושלים')
    for (const words of ['אופנים', 'חשמליים', 'אוֹפַנַּיִם לָעִיר'])
      expect(slugs(await search(words, 'he')), words).toContain('words-900002')
    expect(slugs(await search('רְכִיבָה', 'he'))).toContain('words-900003')
  })

  it('finds an Arabic word written with its vowels by its letters alone, and the other way round', async () => {
    await article(900004, 'ar', 'دَرَّاجَة كَهْرَبَائِيَّة لِلْمَدِينَة')
    await article(900005, 'ar', 'تجربة قيادة في دبي')
    for (const words of ['دراجة', 'كهربائية', 'دَرَّاجَة'])
      expect(slugs(await search(words, 'ar')), words).toContain('words-900004')
    expect(slugs(await search('تَجْرِبَة', 'ar'))).toContain('words-900005')
  })

  it("folds Latin diacritics, and keeps each language's rows to that language", async () => {
    await article(900006, 'it', 'Città e perché: la bici giusta')
    expect(slugs(await search('citta perche', 'it'))).toContain('words-900006')
    expect(slugs(await search('città', 'it'))).toContain('words-900006')
    expect(slugs(await search('citta', 'de'))).not.toContain('words-900006')
    expect(slugs(await search('ποδηλατο', 'it'))).not.toContain('words-900001')
  })
})

describe('the index follows the writes of what it holds', () => {
  it('finds an article as written, again after its change, and no more after its deletion', async () => {
    await article(900010, 'it', 'Granfondo delle Dolomiti')
    expect(slugs(await search('granfondo', 'it'))).toContain('words-900010')
    await env.DB.prepare("UPDATE news SET title = 'Maratona delle Dolomiti' WHERE id = 900010").run()
    expect(slugs(await search('granfondo', 'it'))).not.toContain('words-900010')
    expect(slugs(await search('maratona', 'it'))).toContain('words-900010')
    await env.DB.prepare('DELETE FROM news WHERE id = 900010').run()
    expect(slugs(await search('maratona dolomiti', 'it'))).not.toContain('words-900010')
  })

  it("finds a product by a new language's name and a dealer by its new town, without a rebuild", async () => {
    const product = await env.DB.prepare(
      "SELECT p.id, p.slug FROM products p JOIN product_prices pr ON pr.product_id = p.id AND pr.site = 'it' LIMIT 1",
    ).first<{ id: number; slug: string }>()
    expect(product).not.toBeNull()
    if (!product) return
    await env.DB.prepare("UPDATE product_names SET name = 'Fulmine Azzurro' WHERE product_id = ? AND locale = 'it'")
      .bind(product.id)
      .run()
    const products = async (words: string) => {
      const request = new Request(
        `http://embedded.invalid/api/front/search?q=${encodeURIComponent(words)}&type=products`,
        {
          headers: { 'X-Tenant': 'it', 'X-Locale': 'it' },
        },
      )
      return slugs((await (await api.fetch(request as Parameters<typeof api.fetch>[0], env)).json()) as Found)
    }
    expect(await products('fulmine azzurro')).toEqual([product.slug])

    const dealer = await env.DB.prepare("SELECT id, slug FROM dealers WHERE site = 'it' LIMIT 1").first<{
      id: number
      slug: string
    }>()
    if (!dealer) return
    await env.DB.prepare("UPDATE dealers SET city = 'Roccaraso' WHERE id = ?").bind(dealer.id).run()
    const request = new Request('http://embedded.invalid/api/front/search?q=roccaraso&type=dealers', {
      headers: { 'X-Tenant': 'it', 'X-Locale': 'it' },
    })
    expect(slugs((await (await api.fetch(request as Parameters<typeof api.fetch>[0], env)).json()) as Found)).toEqual([
      dealer.slug,
    ])
  })
})

/** A page of the search for `words` among the news as it-it, and the D1 rows it read. */
async function counted(words: string, page: number) {
  const rows = { read: 0, written: 0 }
  const request = new Request(
    `http://embedded.invalid/api/front/search?q=${encodeURIComponent(words)}&type=news&page=${page}`,
    { headers: { 'X-Tenant': 'it', 'X-Locale': 'it' } },
  )
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], {
    ...env,
    DB: countingRows(env.DB, rows),
  })
  return { found: (await response.json()) as Found, read: rows.read }
}

/** Writes `count` articles for every market in `locale`, published on `day`, the `i`th titled `title(i)`. */
async function articles(
  first: number,
  count: number,
  locale: string,
  title: (i: number) => string,
  day = '2026-01-01',
) {
  await env.DB.batch(
    Array.from({ length: count }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO news (id, slug, scope, locale, title, published_at) VALUES (?, ?, '*', ?, ?, ?)",
      ).bind(first + i, `common-${first + i}`, locale, title(i), day),
    ),
  )
}

/**
 * What a search reads no longer grows with what a word matches (docs/decisions/081): each part of the index (a
 * language's products, its news, a market's dealers) is read in rowid order, at most `WINDOW` matches, and ranked
 * by BM25 within them; FTS5 never ranks a frequent word's whole doclist.
 */
describe('a common word', () => {
  /** The news' window (each of its two parts: for every market, for the market). */
  const WINDOW = WINDOWS.news?.news ?? 0
  /** The rows a page reads at most: each window twice (the index's row, its place in the union), five a result. */
  const bound = 2 * 2 * WINDOW + 5 * 11

  it('reads the window and its page, whatever the index holds: no count of every match', async () => {
    await articles(910_001, 1050, 'it', (i) => `Pedalata comune ${i + 1}`)
    const first = await counted('pedalata', 1)
    expect(first.found.data).toHaveLength(10)
    // Ten on the page and one more: another page follows.
    expect(first.found.meta.total).toBe(11)
    expect(first.read).toBeLessThanOrEqual(bound)
    // Past the window: the rows after it in the index's order, none twice.
    const pages = await Promise.all([2, 3, 4, 5, 6].map((page) => counted('pedalata', page)))
    expect(pages.map(({ found }) => found.meta.total)).toEqual([21, 31, 41, 51, 61])
    const slugs = [first, ...pages].flatMap(({ found }) => found.data.map((result) => result.slug))
    expect(new Set(slugs).size).toBe(60)
    expect(pages[4]?.read).toBeLessThanOrEqual(bound + 4 * 60)
  })

  it("never visits another language's matches", async () => {
    // A thousand English articles that match better (a title of one word) than the three Italian ones.
    await articles(930_001, 1000, 'en', () => 'Salita')
    await articles(940_001, 3, 'it', (i) => `Salita lunga in montagna numero ${i + 1}`)
    const { found, read } = await counted('salita', 1)
    expect(found.data.map((result) => result.slug)).toEqual(['common-940001', 'common-940002', 'common-940003'])
    expect(read).toBeLessThanOrEqual(bound)
  })

  it('ranks within the window: a better match past it in the index’s order comes after the ranked ones', async () => {
    // The newest WINDOW articles match less well than an older one with the word alone in its title.
    await articles(950_001, WINDOW, 'it', (i) => `Discesa lunga e veloce tra i boschi ${i + 1}`, '2026-06-01')
    await articles(950_001 + WINDOW, 1, 'it', () => 'Discesa', '2025-06-01')
    const firstPage = await counted('discesa', 1)
    expect(firstPage.found.data.map((result) => result.slug)).not.toContain(`common-${950_001 + WINDOW}`)
    const last = await counted('discesa', WINDOW / 10 + 1)
    expect(last.found.data.map((result) => result.slug)).toEqual([`common-${950_001 + WINDOW}`])
  })

  it('ranks a word that matches less than the window by BM25, the titles weighing most', async () => {
    await articles(
      960_001,
      3,
      'it',
      (i) => ['Zefiro a disco, nuovo e leggero', 'Colline', 'Zefiro'][i] ?? '',
      '2026-03-01',
    )
    await env.DB.prepare("UPDATE news SET excerpt = 'Prova dello zefiro' WHERE id = 960002").run()
    const { found } = await counted('zefiro', 1)
    expect(found.data.map((result) => result.slug)).toEqual(['common-960003', 'common-960001', 'common-960002'])
  })
})
