import type { Context } from 'hono'
import { DealerMapFrame } from '../../client/islands/dealer-map-frame'
import LocateButton from '../../client/islands/locate-button'
import { IslandNames } from '../../client/islands/names'
import { ContentBlocks } from '../components/content-blocks'
import { Island } from '../components/island'
import { DefaultLayout } from '../components/layouts'
import type { HeadProps } from '../components/page-head'
import type { Chrome, MarketView } from '../components/view'
import { DealerButtons, OpenNow } from '../components/dealer-contact'
import { formatKm } from '../dealers/distance-text'
import { mapTileProps } from '../components/dealer-map-props'
import { type MapTiles, mapTilesOf } from '../tracking/map-tiles'
import type { MarketEnv } from '../env'
import { assets } from '../render/assets'
import { Caching } from '../cache/answer-caching'
import { sendPage, viewOf } from '../render/respond'
import { DEALER_SERVICES, type Dealer, type DealerService } from '../../contract/catalogue-schemas'
import type { ContentPage } from '../../contract/schemas'
import { correctedPlaceOf, nearOf, type Origin, originOf, placeOf, positionOf } from './dealer-origin'

/**
 * How many of the nearest dealers the locator lists: 20, a phone's long list and what the map fits (decision 070 listed
 * 50, the contract's largest page; decision 082 keeps the page's reads and its render to what a visitor scrolls).
 */
export const LOCATOR_DEALERS = 20

/** How many of the nearest dealers the map fits around the place searched or the visitor's position. */
const MAP_FOCUS = 3

type LocatorProps = {
  view: MarketView
  chrome: Chrome
  head: HeadProps
  page: ContentPage
  dealers: Array<Dealer & { distance_km: number }>
  origin: Origin
  near: string
  filters: DealerService[]
  /** The map's street tiles as this visitor may have them (tracking/map-tiles.ts), or null: markers only. */
  tiles: MapTiles | null
  /** The URL's `lat`/`lng` could not be used (malformed or out of range): the page says so. */
  positionInvalid?: boolean
  /** The moment the cards' "open now" lines are written for. */
  now: Date
}

/** The dealer locator: the page's content, the search form, the nearest dealers (a list that needs no JavaScript) and the map. */
export function DealerLocatorPage({
  view,
  chrome,
  head,
  page,
  dealers,
  origin,
  near,
  filters,
  tiles,
  positionInvalid = false,
  now,
}: LocatorProps) {
  const { t } = view
  const segment = view.market.segment
  const tag = view.market.tag
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
                <input type="checkbox" name={service} value="on" defaultChecked={filters.includes(service)} />{' '}
                {t(`dealer.${service}`)}
              </label>
            ))}
          </fieldset>
          <div className="locator-actions">
            <button type="submit" className="button">
              {t('dealer.near_submit')}
            </button>
            <Island
              name={IslandNames.locateButton}
              component={LocateButton}
              props={{
                label: t('dealer.locate'),
                locating: t('dealer.locating'),
                denied: t('dealer.locate_denied'),
                unavailable: t('dealer.locate_unavailable'),
                timeout: t('dealer.locate_timeout'),
              }}
            />
          </div>
        </form>
        {positionInvalid && (
          <p className="form-error" role="alert">
            {t('dealer.position_invalid')}
          </p>
        )}
        <p className="meta" role="status" id="dealer-results" data-origin={origin.from}>
          {origin.from === 'place'
            ? t(origin.corrected ? 'dealer.showing_for' : 'dealer.nearest_to', { place: origin.place })
            : origin.from === 'position'
              ? t('dealer.near_position')
              : origin.from === 'visitor'
                ? t('dealer.near_you')
                : origin.unknownPlace
                  ? t('dealer.place_unknown', { place: origin.unknownPlace })
                  : t('dealer.near_centre')}
        </p>
        <div className="locator">
          <LocatorViews view={view} />
          {dealers.length === 0 ? (
            <p>{t('dealer.none')}</p>
          ) : (
            <ol className="dealer-list">
              {dealers.map((dealer) => (
                <li key={dealer.slug} className="dealer-card">
                  <h2>
                    <a href={`/${segment}/dealers/${dealer.slug}`}>{dealer.name}</a>
                  </h2>
                  <p className="meta distance">{t('dealer.distance', { km: formatKm(dealer.distance_km, tag) })}</p>
                  <p>
                    {dealer.address}, {dealer.postal_code && <bdi>{dealer.postal_code}</bdi>} {dealer.city}
                  </p>
                  <OpenNow view={view} dealer={dealer} now={now} />
                  <ul className="services">
                    {DEALER_SERVICES.filter((service) => dealer.services[service]).map((service) => (
                      <li key={service}>{t(`dealer.${service}`)}</li>
                    ))}
                  </ul>
                  <DealerButtons view={view} dealer={dealer} named />
                  <TestRideLink view={view} chrome={chrome} dealer={dealer} />
                </li>
              ))}
            </ol>
          )}
          <Island
            name={IslandNames.dealerMap}
            component={DealerMapFrame}
            props={{
              ...mapTileProps(tiles, t),
              label: t('dealer.map'),
              centre: origin.point,
              origin:
                origin.from === 'centre'
                  ? null
                  : {
                      ...origin.point,
                      label:
                        origin.from === 'place'
                          ? origin.place
                          : origin.from === 'position'
                            ? t('dealer.near_position')
                            : t('dealer.near_you'),
                    },
              focus: MAP_FOCUS,
              dealers: dealers.map(({ name, lat, lng, slug }) => ({
                name,
                lat,
                lng,
                href: `/${segment}/dealers/${slug}`,
              })),
            }}
          />
        </div>
      </div>
    </DefaultLayout>
  )
}

/**
 * The list/map switch of a phone's locator: a segmented control of two radios (no JavaScript: the page's styles show
 * the list or the map by the one checked, the list first); wider screens show both side by side and hide it.
 */
function LocatorViews({ view }: { view: MarketView }) {
  const { t } = view
  return (
    <fieldset className="locator-views">
      <legend className="visually-hidden">{t('dealer.view_as')}</legend>
      <label>
        <input type="radio" name="locator-view" value="list" defaultChecked />
        <span>{t('dealer.view_list')}</span>
      </label>
      <label>
        <input type="radio" name="locator-view" value="map" />
        <span>{t('dealer.view_map')}</span>
      </label>
    </fieldset>
  )
}

/**
 * "Book a test ride at this dealer" on a card, for a dealer that offers them where the test ride page is available;
 * the dealer's name completes it for assistive technology, which may list the page's links out of their cards.
 */
function TestRideLink({ view, chrome, dealer }: { view: MarketView; chrome: Chrome; dealer: Dealer }) {
  const href = dealer.services.test_rides
    ? chrome.available.pageUrl('test-drive', `?dealer=${encodeURIComponent(dealer.slug)}`)
    : null
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
 * The dealer locator (the content page whose key is `dealer-locator`): the market's LOCATOR_DEALERS dealers nearest
 * to the origin that offer the services asked for (found by the API around the origin, never the market's whole
 * list: docs/decisions/070), nearest first from a typed place or postcode (resolved by `api/front/places`), else the position the
 * visitor's browser gave ("use my position": `?lat=&lng=`), else the visitor's position at the edge, else the market's
 * centre. Coordinates that cannot be used answer 400 with the page measured without them and a message.
 */
export async function sendDealerLocator(
  c: Context<MarketEnv>,
  page: ContentPage,
  chrome: Chrome,
  head: HeadProps,
): Promise<Response> {
  const { market, api, t } = c.var
  const near = nearOf(c)
  const position = positionOf(c)
  const filters = DEALER_SERVICES.filter((service) => c.req.query(service) === 'on')
  const typed = await placeOf(c, near)
  // A town typed that names no place: the nearest of the dealers' towns within a few edits (the market's list, read
  // only then).
  const place = typed ?? (near ? await correctedPlaceOf(c, near, await api.dealers.all()) : null)
  // Without a centre, the market's middle is its dealers' (their list read only then).
  const middle = market.site.centre ? [] : await api.dealers.all()
  const origin = originOf(c, place, near, middle, position === 'invalid' ? null : position)
  const dealers = await api.dealers.nearest(
    origin.point,
    filters,
    LOCATOR_DEALERS,
    origin.from === 'place' || origin.from === 'centre',
  )
  const view = viewOf(c, t, market)
  const tiles = mapTilesOf(c)
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
      tiles={tiles}
      positionInvalid={position === 'invalid'}
      now={new Date()}
    />,
    {
      kind: 'dealer-locator',
      mapTiles: tiles,
      ...(position === 'invalid' ? { status: 400 as const } : {}),
      // Measured from where the visitor is (at the edge, or the position their browser gave, even one that could not be
      // used): a page for them alone.
      caching: origin.from === 'visitor' || position !== null ? Caching.personal : Caching.shared,
    },
  )
}
