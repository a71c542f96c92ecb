import type { Context } from 'hono'
import { DealerMapFrame } from '../../client/islands/dealer-map-frame'
import { IslandNames } from '../../client/islands/names'
import { ContentBlocks } from '../components/content-blocks'
import { Island } from '../components/island'
import { DefaultLayout } from '../components/layouts'
import type { HeadProps } from '../components/page-head'
import type { Chrome, View } from '../components/view'
import { configOf } from '../config'
import type { AppEnv } from '../env'
import { byDistance } from '../geo/distance'
import { assets } from '../render/assets'
import { Caching } from '../cache/answer-caching'
import { sendPage, viewOf } from '../render/respond'
import { DEALER_SERVICES, type Dealer, type DealerService } from '../upstream/catalogue-schemas'
import type { ContentPage } from '../upstream/schemas'
import { nearOf, type Origin, originOf, placeOf } from './dealer-origin'


type LocatorProps = {
  view: View
  chrome: Chrome
  head: HeadProps
  page: ContentPage
  dealers: Array<Dealer & { distance_km: number }>
  origin: Origin
  near: string
  filters: DealerService[]
  tileUrl: string | null
}

/** The dealer locator: the page's content, the search form, the nearest dealers (a list that needs no JavaScript) and the map. */
export function DealerLocatorPage({ view, chrome, head, page, dealers, origin, near, filters, tileUrl }: LocatorProps) {
  const { t } = view
  const segment = view.market!.segment
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <div className="band dealer-locator">
        <h1>{page.title}</h1>
        {page.summary && <p className="lead">{page.summary}</p>}
        <ContentBlocks blocks={page.blocks} />
        <form method="get" className="locator-form" role="search" aria-label={page.title}>
          <div className="field">
            <label htmlFor="near">{t('dealer.near_label')}</label>
            <input id="near" name="near" type="search" defaultValue={near} maxLength={80} autoComplete="postal-code" />
          </div>
          <fieldset>
            <legend>{t('dealer.filters')}</legend>
            {DEALER_SERVICES.map((service) => (
              <label key={service} className="check">
                <input type="checkbox" name={service} value="on" defaultChecked={filters.includes(service)} /> {t(`dealer.${service}`)}
              </label>
            ))}
          </fieldset>
          <button type="submit" className="button">
            {t('dealer.near_submit')}
          </button>
        </form>
        <p className="meta" role="status">
          {origin.from === 'place'
            ? t('dealer.nearest_to', { place: origin.place })
            : origin.from === 'visitor'
              ? t('dealer.near_you')
              : origin.unknownPlace
                ? t('dealer.place_unknown', { place: origin.unknownPlace })
                : t('dealer.near_centre')}
        </p>
        <div className="locator">
          {dealers.length === 0 ? (
            <p>{t('dealer.none')}</p>
          ) : (
            <ol className="dealer-list">
              {dealers.map((dealer) => (
                <li key={dealer.slug} className="dealer-card">
                  <h2>
                    <a href={`/${segment}/dealers/${dealer.slug}`}>{dealer.name}</a>
                  </h2>
                  <p className="meta">{t('dealer.distance', { km: Math.round(dealer.distance_km) })}</p>
                  <p>
                    {dealer.address}, {dealer.postal_code} {dealer.city}
                  </p>
                  <ul className="services">
                    {DEALER_SERVICES.filter((service) => dealer.services[service]).map((service) => (
                      <li key={service}>{t(`dealer.${service}`)}</li>
                    ))}
                  </ul>
                  <TestRideLink view={view} chrome={chrome} dealer={dealer} />
                </li>
              ))}
            </ol>
          )}
          <Island
            name={IslandNames.dealerMap}
            component={DealerMapFrame}
            props={{
              tileUrl,
              attribution: '© OpenStreetMap',
              label: t('dealer.map'),
              centre: origin.point,
              dealers: dealers.map(({ name, lat, lng, slug }) => ({ name, lat, lng, href: `/${segment}/dealers/${slug}` })),
            }}
          />
        </div>
      </div>
    </DefaultLayout>
  )
}

/**
 * "Book a test ride at this dealer" on a card, for a dealer that offers them where the test ride page is available;
 * the dealer's name completes it for assistive technology, which may list the page's links out of their cards.
 */
function TestRideLink({ view, chrome, dealer }: { view: View; chrome: Chrome; dealer: Dealer }) {
  const href = dealer.services.test_rides ? chrome.available.pageUrl('test-drive', `?dealer=${encodeURIComponent(dealer.slug)}`) : null
  if (!href) return null
  return (
    <p className="card-action">
      <a href={href}>
        {view.t('dealer.book_test_ride')}
        <span className="visually-hidden">{` (${dealer.name})`}</span>
      </a>
    </p>
  )
}

/**
 * The dealer locator (the content page whose key is `dealer-locator`): the market's dealers, filtered by the services
 * asked for, nearest first from a typed place or postcode (resolved by `api/front/places`), else the visitor's
 * position at the edge, else the market's centre.
 */
export async function sendDealerLocator(c: Context<AppEnv>, page: ContentPage, chrome: Chrome, head: HeadProps): Promise<Response> {
  const { market, api, t } = c.var
  const near = nearOf(c)
  const filters = DEALER_SERVICES.filter((service) => c.req.query(service) === 'on')
  const [all, place] = await Promise.all([api.dealers.all(), placeOf(c, near)])
  const origin = originOf(c, place, near, all)
  const dealers = byDistance(all.filter((dealer) => filters.every((service) => dealer.services[service])), origin.point)
  const view = viewOf(c, t, market)
  return sendPage(
    c,
    <DealerLocatorPage
      view={view}
      chrome={chrome}
      head={{ ...head, stylesheets: [assets.mapCss] }}
      page={page}
      dealers={dealers}
      origin={origin}
      near={near}
      filters={filters}
      tileUrl={configOf(c.env).mapTiles?.url ?? null}
    />,
    // Measured from where the visitor is: a page for them alone.
    { kind: 'dealer-locator', caching: origin.from === 'visitor' ? Caching.personal : Caching.shared },
  )
}
