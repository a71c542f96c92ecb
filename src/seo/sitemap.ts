import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import { configOf } from '../config'
import type { AppEnv, MarketEnv } from '../env'
import { ErrorMessages, PageError } from '../errors/page-error'
import { availabilityOf } from '../market/availability'
import { availableFor } from '../market/request-availability'
import { alternatesOf } from './alternates'
import { allPageGroups, type PageVersion, placesOf } from './page-groups'

/**
 * URLs per sitemap file: far below the protocol's 50,000, because each URL carries its alternates (one line per
 * market where the page exists), which makes a file of this many URLs a few MB at most, not the protocol's 50 MB.
 */
export const URLS_PER_SITEMAP = 1000

const XML = '<?xml version="1.0" encoding="UTF-8"?>\n'
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9'

/** The path of part `n` of a market's sitemap: `/it-it/sitemap.xml`, then `/it-it/sitemap-2.xml`… */
export const sitemapPath = (segment: string, part: number) => `/${segment}/sitemap${part > 1 ? `-${part}` : ''}.xml`

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

/** Every indexable page of the brand, per market (the live ones), each with its group, from the cached lookups. */
async function indexablePages<E extends AppEnv>(c: Context<E>) {
  const { lookups } = c.var
  const [sites, features, index] = await Promise.all([lookups.sites(), lookups.features(), lookups.pageIndex()])
  const available = c.get('available') ?? availabilityOf(null, features)
  const places = placesOf(sites, available)
  const bySegment = new Map<string, Array<{ version: PageVersion; group: PageVersion[] }>>()
  for (const group of allPageGroups(places, index)) {
    for (const version of group) {
      const pages = bySegment.get(version.place.segment) ?? []
      pages.push({ version, group })
      bySegment.set(version.place.segment, pages)
    }
  }
  return { places, bySegment }
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
  const { places, bySegment } = await indexablePages(c)
  const entries = places.flatMap(({ segment }) => {
    const pages = bySegment.get(segment) ?? []
    return Array.from({ length: Math.ceil(pages.length / URLS_PER_SITEMAP) }, (_, i) => {
      const lastmod = newestOf(pages.slice(i * URLS_PER_SITEMAP, (i + 1) * URLS_PER_SITEMAP))
      return `<sitemap><loc>${escapeXml(origin + sitemapPath(segment, i + 1))}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</sitemap>`
    })
  })
  c.var.caching.allow(Caching.shared)
  return c.body(`${XML}<sitemapindex xmlns="${SITEMAP_NS}">\n${entries.join('\n')}\n</sitemapindex>\n`, 200, {
    'Content-Type': 'application/xml; charset=utf-8',
  })
}

/**
 * `GET /{m}/sitemap.xml` and `/{m}/sitemap-{n}.xml`: a part of the market's indexable pages (URLS_PER_SITEMAP each),
 * each with its lastmod and its hreflang alternates, the same as the page's own `<link rel="alternate">`s.
 */
export async function marketSitemap(c: Context<MarketEnv>): Promise<Response> {
  const part = partOf(c.req.path.split('/').at(-1) ?? '')
  if (!part) throw PageError.pageNotFound(c.req.url)
  const origin = originOf(c)
  await availableFor(c)
  const { bySegment } = await indexablePages(c)
  const pages = (bySegment.get(c.var.market.segment) ?? []).slice(
    (part - 1) * URLS_PER_SITEMAP,
    part * URLS_PER_SITEMAP,
  )
  if (pages.length === 0 && part > 1) throw PageError.pageNotFound(c.req.url)
  const urls = pages.map(({ version, group }) => {
    const links = alternatesOf(group, origin).map(
      ({ hreflang, href }) =>
        `<xhtml:link rel="alternate" hreflang="${escapeXml(hreflang)}" href="${escapeXml(href)}"/>`,
    )
    const lastmod = version.lastmod ? `<lastmod>${version.lastmod}</lastmod>` : ''
    return `<url><loc>${escapeXml(origin + version.path)}</loc>${lastmod}${links.join('')}</url>`
  })
  c.var.caching.allow(Caching.shared)
  return c.body(
    `${XML}<urlset xmlns="${SITEMAP_NS}" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`,
    200,
    { 'Content-Type': 'application/xml; charset=utf-8' },
  )
}
