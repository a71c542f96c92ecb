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
import { byDistance, type Point } from '../geo/distance'
import { assets } from '../render/assets'
import { Caching } from '../cache/answer-caching'
import { sendPage, viewOf } from '../render/respond'
import { DEALER_SERVICES, type Dealer, type DealerService, type Place } from '../upstream/catalogue-schemas'
import type { ContentPage } from '../upstream/schemas'


/** Where the list measures from: a place the visitor typed, their position at the edge, or the market's centre. */
type Origin = { point: Point; from: 'place'; place: string } | { point: Point; from: 'visitor' } | { point: Point; from: 'centre'; unknownPlace?: string }

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
 * The dealer locator (the content page whose key is `dealer-locator`): the market's dealers, filtered by the services
 * asked for, nearest first from a typed place or postcode (resolved by `api/front/places`), else the visitor's
 * position at the edge, else the market's centre.
 */
export async function sendDealerLocator(c: Context<AppEnv>, page: ContentPage, chrome: Chrome, head: HeadProps): Promise<Response> {
  const { market, api, t } = c.var
  const near = (c.req.query('near') ?? '').trim().slice(0, 80)
  const filters = DEALER_SERVICES.filter((service) => c.req.query(service) === 'on')
  const [all, place] = await Promise.all([api.dealers.all(), near.length >= 2 ? api.dealers.place(near) : null])
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

/**
 * Where to measure from: the place typed, else the visitor's position at the edge when they are in the market's
 * country (or on the international site), else the market's centre (or, without one, the middle of its dealers).
 */
function originOf(c: Context<AppEnv>, place: Place | null, near: string, dealers: Point[]): Origin {
  if (place) return { point: place, from: 'place', place: place.name }
  const { site } = c.var.market
  const cf = c.req.raw.cf as { latitude?: string; longitude?: string; country?: string } | undefined
  const visitor = { lat: Number(cf?.latitude), lng: Number(cf?.longitude) }
  const inMarket = site.slug === 'int' || cf?.country?.toUpperCase() === site.country.country_code.toUpperCase()
  if (!near && inMarket && cf?.latitude && cf.longitude && Number.isFinite(visitor.lat) && Number.isFinite(visitor.lng)) {
    return { point: visitor, from: 'visitor' }
  }
  return { point: site.centre ?? middleOf(dealers), from: 'centre', ...(near ? { unknownPlace: near } : {}) }
}

const middleOf = (points: Point[]): Point =>
  points.length === 0
    ? { lat: 0, lng: 0 }
    : { lat: points.reduce((sum, p) => sum + p.lat, 0) / points.length, lng: points.reduce((sum, p) => sum + p.lng, 0) / points.length }
