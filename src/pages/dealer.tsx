import type { Context } from 'hono'
import { Fragment } from 'react'
import { Caching } from '../cache/answer-caching'
import { DefaultLayout } from '../components/layouts'
import type { HeadProps } from '../components/page-head'
import type { Chrome, MarketView } from '../components/view'
import type { MarketEnv } from '../env'
import { sendPage } from '../render/respond'
import { indexedAlternates } from '../seo/alternates'
import { canonicalUrl } from '../seo/canonical'
import { pageGroups } from '../seo/page-groups'
import { breadcrumbs, dealerData } from '../seo/structured-data'
import { DEALER_SERVICES, type Dealer } from '../../contract/catalogue-schemas'
import { findBySlug } from './find-by-slug'
import { DealerMapFrame } from '../../client/islands/dealer-map-frame'
import { IslandNames } from '../../client/islands/names'
import { DealerButtons, OpenNow } from '../components/dealer-contact'
import { Island } from '../components/island'
import { mapTileProps } from '../components/dealer-map-props'
import { type MapTiles, mapTilesOf } from '../tracking/map-tiles'
import { assets } from '../render/assets'

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const

/**
 * A dealer's page: address, "open now", call and directions, the test ride with them, services, contact, opening
 * hours and a map of where it is (the locator's map island, with this dealer alone).
 */
export function DealerPage({
  view,
  chrome,
  head,
  dealer,
  tiles,
  now,
}: {
  view: MarketView
  chrome: Chrome
  head: HeadProps
  dealer: Dealer
  /** The map's street tiles as this visitor may have them (tracking/map-tiles.ts), or null: markers only. */
  tiles: MapTiles | null
  /** The moment the "open now" line is written for. */
  now: Date
}) {
  const { t } = view
  const testRide = dealer.services.test_rides
    ? chrome.available.pageUrl('test-drive', `?dealer=${encodeURIComponent(dealer.slug)}`)
    : null
  const locator = chrome.available.pageUrl('dealer-locator')
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <article className="band dealer">
        {locator && (
          <p className="eyebrow">
            <a href={locator}>{t('dealer.all_dealers')}</a>
          </p>
        )}
        <h1>{dealer.name}</h1>
        <address className="lead">
          <span className="address-line">{dealer.address}</span>
          <span className="address-line">
            {dealer.postal_code && <bdi>{dealer.postal_code}</bdi>} {dealer.city}
            {dealer.region ? ` (${dealer.region})` : ''}
          </span>
        </address>
        <OpenNow view={view} dealer={dealer} now={now} />
        <DealerButtons view={view} dealer={dealer} />
        {testRide && (
          <div className="actions">
            <a className="button" href={testRide}>
              {t('dealer.book_test_ride')}
            </a>
          </div>
        )}
        <div className="dealer-columns">
          <section aria-labelledby="services-title">
            <h2 id="services-title">{t('dealer.services')}</h2>
            <ul className="services">
              {DEALER_SERVICES.filter((service) => dealer.services[service]).map((service) => (
                <li key={service}>{t(`dealer.${service}`)}</li>
              ))}
            </ul>
            <h2>{t('dealer.contact')}</h2>
            <dl className="details">
              {dealer.phone && (
                <>
                  <dt>{t('dealer.phone')}</dt>
                  <dd>
                    <a href={`tel:${dealer.phone.replace(/[^+0-9]/g, '')}`} dir="ltr">
                      {dealer.phone}
                    </a>
                  </dd>
                </>
              )}
              {dealer.email && (
                <>
                  <dt>{t('dealer.email')}</dt>
                  <dd>
                    <a href={`mailto:${dealer.email}`}>{dealer.email}</a>
                  </dd>
                </>
              )}
              {dealer.website && (
                <>
                  <dt>{t('dealer.website')}</dt>
                  <dd>
                    <a href={dealer.website} rel="noopener noreferrer">
                      {dealer.website.replace(/^https?:\/\//, '')}
                    </a>
                  </dd>
                </>
              )}
            </dl>
          </section>
          <section aria-labelledby="hours-title">
            <h2 id="hours-title">{t('dealer.hours')}</h2>
            <table className="hours">
              <tbody>
                {DAYS.map((day, index) => (
                  <tr key={day}>
                    <th scope="row">{t(`dealer.days.${day}`)}</th>
                    <td>
                      {dealer.hours[index]?.length
                        ? dealer.hours[index].map((range, at) => (
                            // Times read left to right in every language: "09:00–19:00" never reversed in RTL.
                            <Fragment key={range}>
                              {at > 0 ? ', ' : ''}
                              <span dir="ltr">{range.replace('-', '–')}</span>
                            </Fragment>
                          ))
                        : t('dealer.closed')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </div>
        <Island
          name={IslandNames.dealerMap}
          component={DealerMapFrame}
          props={{
            ...mapTileProps(tiles, t),
            label: t('dealer.map_of', { name: dealer.name }),
            centre: { lat: dealer.lat, lng: dealer.lng },
            origin: null,
            focus: 1,
            dealers: [
              {
                name: dealer.name,
                lat: dealer.lat,
                lng: dealer.lng,
                href: `/${view.market.segment}/dealers/${dealer.slug}`,
              },
            ],
          }}
        />
      </article>
    </DefaultLayout>
  )
}

/** `GET /{m}/dealers/{slug}`: a dealer of the market; any other slug is "Page Not Found". */
export async function dealerPage(c: Context<MarketEnv>): Promise<Response> {
  const { api, t, market } = c.var
  const { found: dealer, chrome, view } = await findBySlug(c, (slug) => api.dealers.one(slug))
  const head: HeadProps = {
    title: `${dealer.name} · ${dealer.city} · ${t('brand.name')}`,
    description: `${dealer.address}, ${dealer.postal_code ?? ''} ${dealer.city}`,
    canonical: canonicalUrl(view.origin, c.req.url),
    alternates: await indexedAlternates(c, chrome.sites, (places, index) =>
      pageGroups.dealer(places, index, dealer.slug, market.site.slug),
    ),
    structuredData: view.origin
      ? [dealerData(view.origin, market, dealer), dealerTrail(view.origin, market.segment, dealer, t, chrome)]
      : [],
  }
  const tiles = mapTilesOf(c)
  const page = (
    <DealerPage
      view={view}
      chrome={chrome}
      head={{ ...head, stylesheets: [assets.mapCss] }}
      dealer={dealer}
      tiles={tiles}
      now={new Date()}
    />
  )
  return sendPage(c, page, {
    caching: Caching.shared,
    mapTiles: tiles,
  })
}

/** A dealer's page sits under the dealer locator, where it is on (else right under the home). */
function dealerTrail(origin: string, segment: string, dealer: Dealer, t: MarketView['t'], chrome: Chrome) {
  const locator = chrome.available.pageUrl('dealer-locator')
  return breadcrumbs(origin, [
    { name: t('header.home'), path: `/${segment}` },
    ...(locator ? [{ name: t('pages.dealer-locator'), path: locator }] : []),
    { name: dealer.name, path: `/${segment}/dealers/${dealer.slug}` },
  ])
}
