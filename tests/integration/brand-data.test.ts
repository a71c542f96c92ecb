import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import { readBrandData } from '../../scripts/brand-data/read'
import { brandDataStatements } from '../../scripts/brand-data/statements'
import { visit } from '../fixtures/worker'

/** The example folder's statements, checked as `npm run data:load` checks them. */
function exampleStatements(): string[] {
  const read = readBrandData(env.TEST_BRAND_DATA)
  if (!read.ok) throw new Error(JSON.stringify(read.problems))
  return brandDataStatements(read.data)
}

/** Runs statements in one D1 batch, as `wrangler d1 execute --file` does; answers the rows written. */
async function load(statements: string[]): Promise<number> {
  const results = await env.DB.batch(statements.map((sql) => env.DB.prepare(sql)))
  return results.reduce((sum, result) => sum + result.meta.changes, 0)
}

const LOADED_TABLES = [
  'sites',
  'site_locales',
  'translations',
  'products',
  'product_names',
  'product_variants',
  'product_variant_prices',
  'product_prices',
  'pages',
  'page_contents',
  'seo_records',
  'news',
  'dealers',
]

/** Every row of the tables the loader writes, for comparing before and after. */
const snapshot = () =>
  env.DB.batch(LOADED_TABLES.map((table) => env.DB.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`))).then((all) =>
    all.map((result) => result.results),
  )

describe('npm run data:load', () => {
  it("loads the example folder: the new market's product page renders the imported product at its price", async () => {
    expect(await load(exampleStatements())).toBeGreaterThan(10)
    const page = await visit('/ie-en/products/aurora-liffey-4')
    expect(page.status).toBe(200)
    expect(page.text).toContain('Aurora Liffey 4')
    expect(page.text).toContain('A city bike for wet quays')
    expect(page.text).toMatch(/899[.,]00/)
    const dealers = await api.request('/api/front/dealers?per_page=50', { headers: { 'X-Tenant': 'ie' } }, env)
    expect(JSON.stringify(await dealers.json())).toContain('Quays Cycles')
  })

  it('changes nothing the second time: no row written, every table as it was', async () => {
    await load(exampleStatements())
    const before = await snapshot()
    expect(await load(exampleStatements())).toBe(0)
    expect(await snapshot()).toEqual(before)
  })

  it('updates a changed record in place by its natural key, and only that one', async () => {
    await load(exampleStatements())
    const files = { ...env.TEST_BRAND_DATA }
    files['catalogue.json'] = (files['catalogue.json'] ?? '').replace('"stock": 12', '"stock": 7')
    const read = readBrandData(files)
    expect(read.ok).toBe(true)
    if (!read.ok) return
    const before = await snapshot()
    // Written rows include what the listing's triggers keep (decision 069); of the loaded tables, one row changed.
    expect(await load(brandDataStatements(read.data))).toBeGreaterThanOrEqual(1)
    const after = await snapshot()
    const changed = after.flatMap((rows, table) =>
      rows.filter((row, index) => JSON.stringify(row) !== JSON.stringify(before[table]?.[index])),
    )
    expect(changed).toHaveLength(1)
    const row = await env.DB.prepare("SELECT stock FROM product_variants WHERE sku = 'LIF4-M-GRN'").first()
    expect(row).toEqual({ stock: 7 })
  })

  it('refuses invalid files with every problem listed by file, record and field, and nothing to write', () => {
    const files = {
      ...env.TEST_BRAND_DATA,
      'markets.json': (env.TEST_BRAND_DATA['markets.json'] ?? '').replace('"currency": "EUR"', '"currency": "euro"'),
      'catalogue.json': (env.TEST_BRAND_DATA['catalogue.json'] ?? '').replace(
        '"availability": "low_stock"',
        '"availability": "soon"',
      ),
      'news.json': '[{ "slug": "x"',
      'prices.json': '{}',
    }
    const read = readBrandData(files)
    expect(read.ok).toBe(false)
    if (read.ok) return
    expect(read.problems.map(({ file, record, field }) => `${file} ${record} ${field}`)).toEqual([
      'catalogue.json aurora-liffey-4 variants.1.availability',
      'markets.json ie currency',
      'news.json - -',
      'prices.json - -',
    ])
  })

  it("refuses a product whose type the file's types do not name", () => {
    const catalogue = (env.TEST_BRAND_DATA['catalogue.json'] ?? '').replace('"type": "bikes"', '"type": "scooters"')
    const read = readBrandData({ 'catalogue.json': catalogue })
    expect(read.ok ? [] : read.problems.map(({ record, field, message }) => `${record} ${field}: ${message}`)).toEqual([
      'aurora-liffey-4 type: not a type of this file',
    ])
  })
})
