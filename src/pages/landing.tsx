import type { Context } from 'hono'
import { isbot } from 'isbot'
import { BlankLayout } from '../components/layouts'
import { headFromSeo } from '../components/page-head'
import type { View } from '../components/view'
import type { AppEnv } from '../env'
import { loadTranslator } from '../i18n/load-translator'
import { FALLBACK_MARKET, siteUrl } from '../market/market'
import { marketLabel, pickerRegions } from '../market/picker'
import { PICK_MARKET_PATH } from '../market/pick-market'
import { findLiveMarket, rememberedMarket } from '../market/remembered-market'
import { suggestMarket } from '../market/suggest-market'
import { Caching } from '../cache/answer-caching'
import { sendPage, viewOf } from '../render/respond'
import { homeAlternates } from '../seo/alternates'
import { canonicalUrl } from '../seo/canonical'
import { pageSeo } from '../seo/page-seo'
import { MarketRegions, type PickerRegion } from '../../client/islands/market-regions'

type LandingProps = {
  view: View
  regions: PickerRegion[]
  suggestion: { segment: string; label: string } | null
  head: Parameters<typeof BlankLayout>[0]['head']
}

/** The landing page: the full market picker, with the visitor's likely market suggested first. */
export function LandingPage({ view, regions, suggestion, head }: LandingProps) {
  const { t } = view
  return (
    <BlankLayout view={view} head={head}>
      <h1>{t('landing.title')}</h1>
      <p className="lead">{t('landing.intro')}</p>
      <form method="post" action={PICK_MARKET_PATH} className="landing-picker">
        {suggestion && (
          <div className="suggestion">
            <p>{t('picker.suggested', { market: suggestion.label })}</p>
            <button type="submit" name="market" value={suggestion.segment} className="button">
              {t('picker.continue_to', { market: suggestion.label })}
            </button>
          </div>
        )}
        {regions.length === 0 && (
          <p>
            <a className="button" href={FALLBACK_MARKET.home}>
              {t('common.return_to_home')}
            </a>
          </p>
        )}
        <MarketRegions regions={regions} />
      </form>
    </BlankLayout>
  )
}

/**
 * `GET /`: a visitor who picked a market before goes there (never a crawler); everyone else gets the picker, in the
 * language of the market suggested from the edge's country and Accept-Language, without being redirected.
 */
export async function landing(c: Context<AppEnv>): Promise<Response> {
  const { lookups } = c.var
  const sites = await lookups.sites().catch(() => [])
  const remembered = findLiveMarket(sites, rememberedMarket(c))
  if (remembered && !isbot(c.req.header('User-Agent') ?? '')) {
    c.var.caching.allow(Caching.private)
    c.header('Vary', 'Cookie')
    return c.redirect(siteUrl(remembered.site, remembered.locale), 302)
  }
  const geoCountry = (c.req.raw.cf as { country?: string } | undefined)?.country
  const suggested = suggestMarket(sites, geoCountry, c.req.header('Accept-Language'))
  const country = suggested?.site.slug ?? FALLBACK_MARKET.country
  const locale = suggested?.locale ?? FALLBACK_MARKET.locale
  const api = lookups.forMarket({ country, locale })
  const [t, seo] = await Promise.all([loadTranslator(api), pageSeo(api, 'landing')])
  const view = viewOf(c, t, null, false)
  return sendPage(
    c,
    <LandingPage
      view={view}
      regions={pickerRegions(sites, t.t)}
      suggestion={suggested ? { segment: `${suggested.site.slug}-${suggested.locale}`, label: marketLabel(suggested.site, suggested.locale) } : null}
      head={{
        ...headFromSeo(seo, { title: t.t('landing.title'), description: t.t('landing.intro') }, view.origin),
        canonical: canonicalUrl(view.origin, c.req.url),
        alternates: homeAlternates(sites, view.origin),
      }}
    />,
    { caching: Caching.personal, headers: { Vary: 'Accept-Language, Cookie' } },
  )
}
