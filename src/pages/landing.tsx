import type { Context } from 'hono'
import { isbot } from 'isbot'
import { BlankLayout } from '../components/layouts'
import { headFromSeo } from '../components/page-head'
import type { View } from '../components/view'
import type { AppEnv } from '../env'
import { loadTranslator } from '../i18n/load-translator'
import { FALLBACK_MARKET, siteUrl } from '../market/market'
import { marketLabel, pickerRegions } from '../market/picker'
import { PICK_MARKET_PATH } from '../market/pick-form'
import { findLiveMarket, rememberedMarket } from '../market/remembered-market'
import { suggestMarket } from '../market/suggest-market'
import type { Site } from '../../contract/schemas'
import { Caching } from '../cache/answer-caching'
import { InlineScript } from '../render/inline-scripts'
import { sendPage, viewOf } from '../render/respond'
import { homeAlternates, hreflangOf } from '../seo/alternates'
import { canonicalUrl } from '../seo/canonical'
import { pageSeo } from '../seo/page-seo'
import type { PickerRegion } from '../components/market-regions'

/** A live market as the landing page links it: its picker entry, its home and its hreflang. */
type MarketLink = PickerRegion['markets'][number] & { href: string; hreflang: string }

type LandingProps = {
  view: View
  regions: Array<{ name: string; markets: MarketLink[] }>
  suggestion: { segment: string; label: string } | null
  head: Parameters<typeof BlankLayout>[0]['head']
}

/**
 * The landing page: every live market as a plain link (crawlers follow them), grouped by region, with the visitor's
 * likely market suggested first.
 */
export function LandingPage({ view, regions, suggestion, head }: LandingProps) {
  const { t } = view
  return (
    <BlankLayout view={view} head={head}>
      <h1>{t('landing.title')}</h1>
      <p className="lead">{t('landing.intro')}</p>
      <form method="post" action={PICK_MARKET_PATH} className="landing-picker" id={PICK_FORM_ID}>
        {suggestion && (
          <div className="suggestion">
            <p>{t('picker.suggested', { market: suggestion.label })}</p>
            <button type="submit" className="button">
              {t('picker.continue_to', { market: suggestion.label })}
            </button>
          </div>
        )}
        <input type="hidden" name="market" value={suggestion?.segment ?? ''} />
      </form>
      {regions.length === 0 && (
        <p>
          <a className="button" href={FALLBACK_MARKET.home}>
            {t('common.return_to_home')}
          </a>
        </p>
      )}
      <nav aria-label={t('picker.title')} className="landing-markets">
        {regions.map((region, index) => (
          <section key={region.name} aria-labelledby={`region-${index}`}>
            <h2 id={`region-${index}`}>{region.name}</h2>
            <ul className="market-list">
              {region.markets.map((market) => (
                <li key={market.segment}>
                  <a href={market.href} hrefLang={market.hreflang} lang={market.locale} data-market={market.segment}>
                    {market.label}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </nav>
      <PickByLink />
    </BlankLayout>
  )
}

/** The picker's form on the landing page: the links post their market through it, so that the pick is remembered. */
const PICK_FORM_ID = 'pick-market'

/**
 * Each market is a plain link (crawlers follow it; without JavaScript it simply goes there); a click also remembers
 * the market, by sending it through the picker's form (`POST /_market`: remember, then go there). Modified clicks (a
 * new tab) stay plain links. Inline (`InlineScript`): the landing page loads no bundle.
 */
function PickByLink() {
  const script =
    `document.addEventListener('click',function(e){var a=e.target instanceof Element&&e.target.closest('a[data-market]'),` +
    `f=document.getElementById('${PICK_FORM_ID}');if(!a||!f||e.defaultPrevented||e.button!==0||e.metaKey||e.ctrlKey||e.shiftKey||e.altKey)return;` +
    `e.preventDefault();f.elements.market.value=a.getAttribute('data-market');f.submit()})`
  return <InlineScript code={script} />
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
      regions={pickerRegions(sites, t).map((region) => ({
        ...region,
        markets: region.markets.map((market) => linkOf(sites, market)),
      }))}
      suggestion={
        suggested
          ? {
              segment: `${suggested.site.slug}-${suggested.locale}`,
              label: marketLabel(suggested.site, suggested.locale),
            }
          : null
      }
      head={{
        ...headFromSeo(seo, { title: t('landing.title'), description: t('landing.intro') }, view.origin),
        canonical: canonicalUrl(view.origin, c.req.url),
        alternates: homeAlternates(sites, view.origin),
      }}
    />,
    { caching: Caching.personal, headers: { Vary: 'Accept-Language, Cookie' } },
  )
}

/** A picker entry as a link to its market's home. */
function linkOf(sites: Site[], market: PickerRegion['markets'][number]): MarketLink {
  const live = findLiveMarket(sites, market.segment)
  return {
    ...market,
    href: live ? siteUrl(live.site, live.locale) : `/${market.segment}`,
    hreflang: live ? hreflangOf(live.site, live.locale) : market.locale,
  }
}
