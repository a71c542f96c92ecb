import type { z } from 'zod'
import {
  type CatalogueRecords,
  catalogueFile,
  type DealerRecord,
  dealerFile,
  type MarketRecord,
  marketFile,
  type NewsRecord,
  newsFile,
  type PageRecords,
  pageFile,
  translationFile,
} from './records'
import type { Messages } from '../../contract/schemas'

/** The brand's data, checked: what each file of the folder holds (a file left out is nothing to load). */
export type BrandData = {
  markets: MarketRecord[]
  translations: Record<string, Messages>
  catalogue: CatalogueRecords | null
  news: NewsRecord[]
  pages: PageRecords
  dealers: DealerRecord[]
}

/** One thing wrong in the folder: its file, the record (its slug, SKU or key, else its place) and the field. */
export type Problem = { file: string; record: string; field: string; message: string }

/** The files the loader knows, each with its schema and where its records go. */
const FILES = {
  'markets.json': marketFile,
  'catalogue.json': catalogueFile,
  'news.json': newsFile,
  'pages.json': pageFile,
  'dealers.json': dealerFile,
} as const

const TRANSLATION = /^translations\/([a-z]{2})\.json$/

/**
 * Checks a folder's files (path within the folder → text) against the contract's schemas and answers the data, or
 * every problem found: a file that is not JSON, a record that fails its schema, a file the loader does not know.
 *
 * @example
 * const read = readBrandData({ 'markets.json': '[…]', 'translations/it.json': '{…}' })
 * if (!read.ok) for (const p of read.problems) console.error(`${p.file} ${p.record} ${p.field}: ${p.message}`)
 */
export function readBrandData(
  files: Record<string, string>,
): { ok: true; data: BrandData } | { ok: false; problems: Problem[] } {
  const problems: Problem[] = []
  const data: BrandData = { markets: [], translations: {}, catalogue: null, news: [], pages: {}, dealers: [] }
  const check = <S extends z.ZodType>(file: string, schema: S): z.infer<S> | null => {
    let json: unknown
    try {
      json = JSON.parse(files[file] ?? '')
    } catch (error) {
      problems.push({ file, record: '-', field: '-', message: `not JSON: ${(error as Error).message}` })
      return null
    }
    const result = schema.safeParse(json)
    if (result.success) return result.data
    for (const issue of result.error.issues)
      problems.push({ file, ...placeOf(json, issue.path), message: issue.message })
    return null
  }
  for (const file of Object.keys(files).sort()) {
    const translation = TRANSLATION.exec(file)
    if (translation?.[1]) {
      const messages = check(file, translationFile)
      if (messages) data.translations[translation[1]] = messages
    } else if (file === 'markets.json') data.markets = check(file, FILES[file]) ?? []
    else if (file === 'catalogue.json') data.catalogue = check(file, FILES[file])
    else if (file === 'news.json') data.news = check(file, FILES[file]) ?? []
    else if (file === 'pages.json') data.pages = check(file, FILES[file]) ?? {}
    else if (file === 'dealers.json') data.dealers = check(file, FILES[file]) ?? []
    else if (file.endsWith('.json'))
      problems.push({ file, record: '-', field: '-', message: 'not a file the loader knows (docs/data.md)' })
  }
  return problems.length ? { ok: false, problems } : { ok: true, data }
}

/** A path into a file as its record (natural key where the record has one) and the field within it. */
function placeOf(json: unknown, path: PropertyKey[]): { record: string; field: string } {
  // catalogue.json's records are one level down (types, products); the others' at the top.
  const depth = Array.isArray(json) ? 1 : path[0] === 'types' || path[0] === 'products' ? 2 : 1
  let record: unknown = json
  for (const step of path.slice(0, depth)) record = (record as Record<PropertyKey, unknown> | undefined)?.[step]
  const keyed = record as { slug?: unknown; sku?: unknown } | undefined
  const name = typeof keyed?.slug === 'string' ? keyed.slug : path.slice(0, depth).map(String).join('/')
  return { record: name || '-', field: path.slice(depth).map(String).join('.') || '-' }
}
