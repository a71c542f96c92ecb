import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
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

describe('a common word', () => {
  it('reads its page and one row more in rank order, whatever the index holds: no count of every match', async () => {
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1050)
       INSERT INTO news (id, slug, scope, locale, title, published_at)
       SELECT 910000 + i, 'common-' || i, '*', 'it', 'Pedalata comune ' || i, '2026-01-01' FROM n`,
    ).run()
    /** A page of the search for "pedalata", and the D1 rows it read. */
    const counted = async (page: number) => {
      const rows = { read: 0, written: 0 }
      const request = new Request(`http://embedded.invalid/api/front/search?q=pedalata&type=news&page=${page}`, {
        headers: { 'X-Tenant': 'it', 'X-Locale': 'it' },
      })
      const response = await api.fetch(request as Parameters<typeof api.fetch>[0], {
        ...env,
        DB: countingRows(env.DB, rows),
      })
      return { found: (await response.json()) as Found, read: rows.read }
    }
    const first = await counted(1)
    expect(first.found.data).toHaveLength(10)
    // Ten on the page and one more: another page follows.
    expect(first.found.meta.total).toBe(11)
    // Three rows a result read (its index row, its slug, its picture): 1,050 matches, 33 rows.
    expect(first.read).toBeLessThanOrEqual(40)
    const fifth = await counted(5)
    expect(fifth.found.meta.total).toBe(51)
    expect(fifth.found.data.map((result) => result.slug)).not.toContain(first.found.data[0]?.slug)
  })
})
