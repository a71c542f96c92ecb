import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import { configOf } from '../config'
import type { AppEnv, MarketEnv } from '../env'
import { ErrorMessages, PageError } from '../errors/page-error'
import { availabilityOf } from '../market/availability'
import { availableFor } from '../market/request-availability'
import { alternatesOf } from './alternates'
import { IDS_PER_SITEMAP_PART, type PageIndex } from '../../contract/page-index-schemas'
import {
  allPageGroups,
  dealerGroup,
  isShownVersion,
  newsPartsIn,
  type PagePlace,
  type PageVersion,
  pageGroups,
  placesOf,
  productGroup,
  withEntries,
} from './page-groups'

/**
 * URLs per sitemap file: far below the protocol's 50,000, because each URL carries its alternates (one line per
 * market where the page exists), which makes a file of this many URLs a few MB at most, not the protocol's 50 MB.
 */
export const URLS_PER_SITEMAP = 1000

const XML = '<?xml version="1.0" encoding="UTF-8"?>\n'
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9'

/** The path of part `n` of a market's sitemap: `/it-it/sitemap.xml`, then `/it-it/sitemap-2.xml`… */
export const sitemapPath = (segment: string, part: number) => `/${segment}/sitemap${part > 1 ? `-${part}` : ''}.xml`

/** The path of a market's sitemap of one part of its dealers: `/it-it/sitemap-dealers-0.xml`. */
export const dealersSitemapPath = (segment: string, part: number) => `/${segment}/sitemap-dealers-${part}.xml`

/** The path of a market's sitemap of one part of its products (`products`) or articles (`news`). */
export const partSitemapPath = (segment: string, kind: 'products' | 'news', part: number) =>
  `/${segment}/sitemap-${kind}-${part}.xml`

/** The kind and part of a path's last segment (`sitemap-dealers-3.xml` dealers 3), or null. */
const kindPartOf = (name: string): { kind: 'dealers' | 'products' | 'news'; part: number } | null => {
  const match = /^sitemap-(dealers|products|news)-(0|[1-9][0-9]{0,5})\.xml$/.exec(name)
  return match ? { kind: match[1] as 'dealers' | 'products' | 'news', part: Number(match[2]) } : null
}

/** The sitemap's parts of a path's last segment (`sitemap.xml` 1, `sitemap-2.xml` 2), or null. */
const partOf = (name: string): number | null => {
  const match = /^sitemap(?:-([2-9]|[1-9][0-9]{1,4}))?\.xml$/.exec(name)
  return match ? Number(match[1] ?? 1) : null
}

const escapeXml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')

/** The brand's live markets' places, each with its availability, from the cached lookups. */
async function livePlaces<E extends AppEnv>(c: Context<E>) {
  const { lookups } = c.var
  const [sites, features] = await Promise.all([lookups.sites(), lookups.features()])
  return placesOf(sites, c.get('available') ?? availabilityOf(null, features))
}

/**
 * Every indexable page of the brand listed by the page index, per market (the live ones), each with its group, from
 * the cached lookups; dealers the index counts in parts are not among them (their own parts list them).
 */
async function indexablePages<E extends AppEnv>(c: Context<E>) {
  const { lookups } = c.var
  const [places, index]: [PagePlace[], PageIndex | null] = await Promise.all([livePlaces(c), lookups.pageIndex()])
  const bySegment = new Map<string, Array<{ version: PageVersion; group: PageVersion[] }>>()
  for (const group of allPageGroups(places, index)) {
    for (const version of group) {
      const pages = bySegment.get(version.place.segment) ?? []
      pages.push({ version, group })
      bySegment.set(version.place.segment, pages)
    }
  }
  return { places, bySegment, index }
}

/** The newest lastmod of some pages, or null. */
const newestOf = (pages: Array<{ version: PageVersion }>) =>
  pages.reduce<string | null>(
    (max, { version }) => (version.lastmod && (!max || version.lastmod > max) ? version.lastmod : max),
    null,
  )

/** Sitemaps need absolute URLs: without a public origin there are none to give. */
function originOf<E extends AppEnv>(c: Context<E>): string {
  const origin = configOf(c.env).publicOrigin
  if (!origin) throw new PageError(503, ErrorMessages.serverError, 'server-error')
  return origin
}

/**
 * `GET /sitemap.xml`: the index of every live market's sitemap parts, with each part's newest lastmod. Markets under
 * maintenance are not listed.
 */
export async function sitemapIndex(c: Context<AppEnv>): Promise<Response> {
  const origin = originOf(c)
  const { places, bySegment, index } = await indexablePages(c)
  const entry = (path: string, lastmod: string | null | undefined) =>
    `<sitemap><loc>${escapeXml(origin + path)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</sitemap>`
  const entries = places.flatMap((place) => {
    const pages = bySegment.get(place.segment) ?? []
    const parts = Array.from({ length: Math.ceil(pages.length / URLS_PER_SITEMAP) }, (_, i) =>
      entry(sitemapPath(place.segment, i + 1), newestOf(pages.slice(i * URLS_PER_SITEMAP, (i + 1) * URLS_PER_SITEMAP))),
    )
    const dealerParts = place.available.has('dealer-pages')
      ? (index?.dealer_parts ?? [])
          .filter((part) => part.site === place.site.slug && part.count > 0)
          .map((part) => entry(dealersSitemapPath(place.segment, part.part), part.lastmod))
      : []
    const productParts = place.available.has('products')
      ? (index?.product_parts ?? [])
          .filter((part) => part.site === place.site.slug && part.count > 0)
          .map((part) => entry(partSitemapPath(place.segment, 'products', part.part), part.lastmod))
      : []
    const newsParts = place.available.has('news')
      ? [...newsPartTimes(index, place)].map(([part, lastmod]) =>
          entry(partSitemapPath(place.segment, 'news', part), lastmod),
        )
      : []
    return [...parts, ...productParts, ...newsParts, ...dealerParts]
  })
  c.var.caching.allow(Caching.shared)
  return c.body(`${XML}<sitemapindex xmlns="${SITEMAP_NS}">\n${entries.join('\n')}\n</sitemapindex>\n`, 200, {
    'Content-Type': 'application/xml; charset=utf-8',
  })
}

/** A market's articles' parts (its locale's for every market and for its site, merged), each with its newest change. */
function newsPartTimes(index: PageIndex | null, place: PagePlace): Map<number, string | null> {
  const parts = new Map<number, string | null>()
  for (const { part, count, lastmod } of index ? newsPartsIn(index, place) : []) {
    if (count <= 0) continue
    const known = parts.get(part) ?? null
    parts.set(part, known && (!lastmod || known > lastmod) ? known : (lastmod ?? null))
  }
  return new Map([...parts].sort(([a], [b]) => a - b))
}

/**
 * `GET /{m}/sitemap.xml` and `/{m}/sitemap-{n}.xml`: a part of the market's indexable pages (URLS_PER_SITEMAP each),
 * each with its lastmod and its hreflang alternates, the same as the page's own `<link rel="alternate">`s.
 */
export async function marketSitemap(c: Context<MarketEnv>): Promise<Response> {
  const name = c.req.path.split('/').at(-1) ?? ''
  const kindPart = kindPartOf(name)
  if (kindPart?.kind === 'dealers') return dealersSitemap(c, kindPart.part)
  if (kindPart) return partSitemap(c, kindPart.kind, kindPart.part)
  const part = partOf(name)
  if (!part) throw PageError.pageNotFound(c.req.url)
  const origin = originOf(c)
  await availableFor(c)
  const { bySegment } = await indexablePages(c)
  const pages = (bySegment.get(c.var.market.segment) ?? []).slice(
    (part - 1) * URLS_PER_SITEMAP,
    part * URLS_PER_SITEMAP,
  )
  if (pages.length === 0 && part > 1) throw PageError.pageNotFound(c.req.url)
  return urlSet(
    c,
    pages.map(({ version, group }) => urlOf(version, group, origin)),
  )
}

/**
 * `GET /{m}/sitemap-dealers-{part}.xml`: the market's dealers of one part of the page index's `dealer_parts` (one
 * range of ids, read as such: `api/front/page-index/dealers`), each with its lastmod and the alternates of its
 * market's locales. "Page Not Found" for an empty part or where dealer pages are off.
 */
async function dealersSitemap(c: Context<MarketEnv>, part: number): Promise<Response> {
  const origin = originOf(c)
  await availableFor(c)
  const places = await livePlaces(c)
  const here = places.find((place) => place.segment === c.var.market.segment)
  const dealers = here?.available.has('dealer-pages') ? await c.var.lookups.pageIndexDealers(here.site.slug, part) : []
  const urls = dealers.flatMap((dealer) => {
    const group = dealerGroup(places, dealer)
    const version = group.find((v) => v.place.segment === c.var.market.segment)
    return version ? [urlOf(version, group, origin)] : []
  })
  if (urls.length === 0) throw PageError.pageNotFound(c.req.url)
  return urlSet(c, urls)
}

/**
 * `GET /{m}/sitemap-products-{part}.xml` and `/{m}/sitemap-news-{part}.xml`: the market's products (or articles) of
 * one part of the page index's `product_parts` (`news_parts`), read as that range of ids
 * (`api/front/page-index/products`, `…/news`), each with its lastmod and its alternates: a product's from the sites
 * its entry names, an article's from its story's articles the part's answer brings. "Page Not Found" for an empty
 * part or where the section is off.
 */
async function partSitemap(c: Context<MarketEnv>, kind: 'products' | 'news', part: number): Promise<Response> {
  const origin = originOf(c)
  await availableFor(c)
  const [places, index] = await Promise.all([livePlaces(c), c.var.lookups.pageIndex()])
  const here = places.find((place) => place.segment === c.var.market.segment)
  const from = part * IDS_PER_SITEMAP_PART
  const groups =
    !here || !index || !here.available.has(kind)
      ? []
      : kind === 'products'
        ? (await c.var.lookups.pageIndexProducts(here.site.slug, part)).map((product) => productGroup(places, product))
        : await articleGroups(c, places, index, here, part, from)
  const urls = groups.flatMap((group) => {
    const version = group.find((v) => v.place.segment === here?.segment)
    return version ? [urlOf(version, group, origin)] : []
  })
  if (urls.length === 0) throw PageError.pageNotFound(c.req.url)
  return urlSet(c, urls)
}

/** The groups of the articles of one part a market shows (each story once: the version the market shows). */
async function articleGroups(
  c: Context<MarketEnv>,
  places: PagePlace[],
  index: PageIndex,
  here: PagePlace,
  part: number,
  from: number,
) {
  const articles = await c.var.lookups.pageIndexNews(here.site.slug, here.locale, part)
  const known = withEntries(index, { news: articles })
  return known.news
    .filter((a) => a.id != null && a.id >= from && a.id < from + IDS_PER_SITEMAP_PART)
    .filter((a) => isShownVersion(known, here, a))
    .map((a) => pageGroups.article(places, known, a.slug, here))
}

/** A page's `<url>`: its loc, its lastmod and its alternates, the same as the page's own `<link rel="alternate">`s. */
function urlOf(version: PageVersion, group: PageVersion[], origin: string): string {
  const links = alternatesOf(group, origin).map(
    ({ hreflang, href }) => `<xhtml:link rel="alternate" hreflang="${escapeXml(hreflang)}" href="${escapeXml(href)}"/>`,
  )
  const lastmod = version.lastmod ? `<lastmod>${version.lastmod}</lastmod>` : ''
  return `<url><loc>${escapeXml(origin + version.path)}</loc>${lastmod}${links.join('')}</url>`
}

/** A sitemap of some `<url>`s, cached for every visitor. */
function urlSet(c: Context<MarketEnv>, urls: string[]): Response {
  c.var.caching.allow(Caching.shared)
  return c.body(
    `${XML}<urlset xmlns="${SITEMAP_NS}" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`,
    200,
    { 'Content-Type': 'application/xml; charset=utf-8' },
  )
}
