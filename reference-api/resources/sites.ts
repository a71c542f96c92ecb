import { Hono } from 'hono'
import type { z } from 'zod'
import { type Site, siteAnswer, type siteSchema, sitesAnswer } from '../../contract/schemas'
import { type ApiEnv, notFound, parseJson, respond } from '../context'
import { seoRow, type SeoRow } from './seo'

type SiteRow = {
  id: number
  slug: string
  name: string
  country_code: string
  region: Site['country']['region']
  currency: string | null
  currency_token: string | null
  currency_place: 'left' | 'right' | null
  settings: string
  page_links: string
  centre_lat: number | null
  centre_lng: number | null
}
type LocaleRow = { site_id: number; locale: string; url: string; page_links: string }

/** `GET api/sites` and `GET api/sites/{country}`: the markets' site records. */
export const sites = new Hono<ApiEnv>()
  .get('/sites', async (c) => {
    const [siteRows, localeRows] = await c.env.DB.batch([
      c.env.DB.prepare('SELECT * FROM sites ORDER BY position, slug'),
      c.env.DB.prepare('SELECT site_id, locale, url, page_links FROM site_locales ORDER BY site_id, position'),
    ])
    const locales = (localeRows?.results ?? []) as LocaleRow[]
    const records = ((siteRows?.results ?? []) as SiteRow[]).map((row) =>
      toSite(
        row,
        locales.filter((l) => l.site_id === row.id),
        null,
      ),
    )
    return respond(c, sitesAnswer, { data: records })
  })
  .get('/sites/:country', async (c) => {
    const country = c.req.param('country')
    if (!/^[a-z]{2,3}$/.test(country)) return notFound(c)
    const row = await c.env.DB.prepare('SELECT * FROM sites WHERE slug = ?').bind(country).first<SiteRow>()
    if (!row) return notFound(c)
    const { results: locales } = await c.env.DB.prepare(
      'SELECT site_id, locale, url, page_links FROM site_locales WHERE site_id = ? ORDER BY position',
    )
      .bind(row.id)
      .all<LocaleRow>()
    // The record is the same for every caller (the Worker caches it per country): its SEO is the first locale's.
    const locale = locales[0]?.locale ?? 'en'
    const seo = await c.env.DB.prepare(
      `SELECT s.* FROM seo_records s JOIN pages p ON p.id = s.model_id
         WHERE s.model_type = 'Page' AND p.key = 'home' AND s.locale IN (?, 'en') ORDER BY s.locale = 'en' LIMIT 1`,
    )
      .bind(locale)
      .first<SeoRow>()
    return respond(c, siteAnswer, { data: toSite(row, locales, seo) })
  })

function toSite(row: SiteRow, locales: LocaleRow[], seo: SeoRow | null): z.input<typeof siteSchema> {
  return {
    id: row.id,
    slug: row.slug,
    country: { name: row.name, country_code: row.country_code, region: row.region },
    locales: locales.map((l) => l.locale),
    urls: locales.map((l) => ({ locale_code: l.locale, url: l.url })),
    pageLinks: parseJson(row.page_links, {}),
    // Only the locales that name slugs of their own: the others use the site-wide ones.
    pageLinksByLocale: Object.fromEntries(
      locales
        .map((l) => [l.locale, parseJson<Record<string, string>>(l.page_links, {})] as const)
        .filter(([, links]) => Object.keys(links).length > 0),
    ),
    seo: seo ? seoRow(seo) : null,
    settings: parseJson(row.settings, {}),
    centre: row.centre_lat === null || row.centre_lng === null ? null : { lat: row.centre_lat, lng: row.centre_lng },
    // A site stored without a currency fails the contract: the call answers 500 (logged) until the currency is set.
    currency: row.currency ?? '',
    default_currency_token: row.currency_token ?? '$',
    default_currency_place: row.currency_place ?? 'left',
  }
}
