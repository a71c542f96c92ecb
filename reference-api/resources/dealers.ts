import { Hono } from 'hono'
import {
  DEALER_SERVICES,
  type Dealer,
  type DealerService,
  dealerAnswer,
  dealersAnswer,
  placeAnswer,
} from '../../contract/catalogue-schemas'
import { byDistance, type Point } from '../../contract/distance'
import { ringRuns, searchedKm } from '../dealer-cells'
import { matchPlace, placeName } from '../places'
import {
  type ApiContext,
  type ApiEnv,
  badPaging,
  badParameter,
  notFound,
  pageParams,
  parseJson,
  respond,
} from '../context'

type DealerRow = Omit<Dealer, 'services' | 'hours' | 'distance_km'> & {
  cell?: number
  sales: number
  service: number
  test_rides: number
  hours: string
  translations: string
}

/** What a dealer's row may say in another language: its address, town and region. */
type DealerWords = Partial<Record<'address' | 'city' | 'region', string>>

/** What a dealer's row says in `locale` (its `translations` column): its address, town and region, where it has them. */
export const dealerWords = (translations: string | null | undefined, locale: string): DealerWords =>
  parseJson<Record<string, DealerWords>>(translations ?? null, {})[locale] ?? {}

/** A dealer as the contract answers it, its address, town and region in the caller's language where it has them. */
const toDealer = (
  { sales, service, test_rides, hours, translations, cell: _cell, ...row }: DealerRow,
  locale: string,
): Dealer => {
  const words = dealerWords(translations, locale)
  return {
    ...row,
    address: words.address || row.address,
    city: words.city || row.city,
    region: words.region || row.region,
    services: { sales: sales === 1, service: service === 1, test_rides: test_rides === 1 },
    hours: parseJson<string[][]>(hours, [[], [], [], [], [], [], []]),
  }
}

/** The market whose dealers are listed: the caller's `X-Tenant`, else the international site. */
const siteOf = (c: ApiContext) => c.var.tenant ?? 'int'

/**
 * The dealers of the caller's market: `GET api/front/dealers?lat=&lng=&services=&page=&per_page=` (nearest first
 * when a point is given, found by their grid cells ring by ring, `total` then counting those of the cells searched;
 * else by name; `services` a comma list of `sales`, `service`, `test_rides` a dealer must
 * all offer), `GET api/front/dealers/{slug}`, and `GET api/front/places?q=` (a town or postcode of the market typed
 * by a visitor, resolved to a point).
 */
export const dealers = new Hono<ApiEnv>()
  .get('/front/dealers', async (c) => {
    const paging = pageParams(c, 50)
    const point = pointOf(c.req.query('lat'), c.req.query('lng'))
    const services = servicesOf(c.req.query('services'))
    if (!paging) return badPaging(c)
    if (point === undefined) return badParameter(c, 'lat and lng', 'given together, in degrees')
    if (!services) return badParameter(c, 'services', `a comma list of ${DEALER_SERVICES.join(', ')}`)
    if (point) {
      const { found, total } = await nearestDealers(c, point, services, paging.offset + paging.perPage)
      return respond(c, dealersAnswer, {
        data: found.slice(paging.offset).map((dealer) => ({
          ...dealer,
          distance_km: Math.round(dealer.distance_km * 10) / 10,
        })),
        meta: { page: paging.page, per_page: paging.perPage, total },
      })
    }
    // By name, one page through `dealers_by_site_name` (migration 0030), not the market's whole list sorted.
    const offering = services.map((service) => ` AND ${service} = 1`).join('')
    const [rows, count] = await c.env.DB.batch<DealerRow & { total: number }>([
      c.env.DB.prepare(
        `SELECT * FROM dealers INDEXED BY dealers_by_site_name WHERE site = ?${offering} ORDER BY name, id LIMIT ? OFFSET ?`,
      ).bind(siteOf(c), paging.perPage, paging.offset),
      c.env.DB.prepare(`SELECT COUNT(*) AS total FROM dealers WHERE site = ?${offering}`).bind(siteOf(c)),
    ])
    return respond(c, dealersAnswer, {
      data: (rows?.results ?? []).map((row) => toDealer(row, c.var.locale)),
      meta: { page: paging.page, per_page: paging.perPage, total: count?.results[0]?.total ?? 0 },
    })
  })
  .get('/front/dealers/:slug', async (c) => {
    const slug = c.req.param('slug')
    if (!/^[a-z0-9-]{1,80}$/.test(slug)) return notFound(c)
    const row = await c.env.DB.prepare('SELECT * FROM dealers WHERE site = ? AND slug = ?')
      .bind(siteOf(c), slug)
      .first<DealerRow>()
    return row ? respond(c, dealerAnswer, { data: toDealer(row, c.var.locale) }) : notFound(c)
  })
  .get('/front/places', async (c) => {
    const words = (c.req.query('q') ?? '').trim()
    if (words.length < 2 || words.length > 80) return notFound(c)
    const { results } = await c.env.DB.prepare(
      'SELECT name, names, aliases, postal_code, lat, lng FROM places WHERE site = ? ORDER BY id',
    )
      .bind(siteOf(c))
      .all<{ name: string; names: string; aliases: string; postal_code: string | null; lat: number; lng: number }>()
    const place = matchPlace(
      results.map((row) => ({
        ...row,
        names: parseJson<Record<string, string>>(row.names, {}),
        aliases: parseJson<string[]>(row.aliases, []),
      })),
      words,
    )
    if (!place) return notFound(c)
    const { postal_code, lat, lng } = place
    return respond(c, placeAnswer, { data: { name: placeName(place, c.var.locale), postal_code, lat, lng } })
  })

/** `lat`/`lng` as a point; undefined when malformed or only one is given; null when neither is. */
function pointOf(lat: string | undefined, lng: string | undefined): { lat: number; lng: number } | null | undefined {
  if (lat === undefined && lng === undefined) return null
  const point = { lat: Number(lat), lng: Number(lng) }
  const valid = /^-?\d{1,3}(\.\d{1,8})?$/.test(lat ?? '') && /^-?\d{1,3}(\.\d{1,8})?$/.test(lng ?? '')
  return valid && Math.abs(point.lat) <= 90 && Math.abs(point.lng) <= 180 ? point : undefined
}

function servicesOf(value: string | undefined): DealerService[] | null {
  if (!value) return []
  const asked = value.split(',')
  return asked.every((s): s is DealerService => (DEALER_SERVICES as readonly string[]).includes(s))
    ? (asked as DealerService[])
    : null
}

/**
 * The rings searched at each step, widening: rings 0–1 (the origin's cell and its neighbours), then 2–3, 4–7, 8–15
 * and 16–31 (about 860 km north and south). Past them, the market's whole list (a market that sparse has few).
 */
const RING_STEPS: ReadonlyArray<readonly [number, number]> = [
  [0, 1],
  [2, 3],
  [4, 7],
  [8, 15],
  [16, 31],
]

/**
 * The `count` dealers nearest to `point` offering every service asked for, nearest first (exact distance), read by
 * their cells through `dealers_by_cell`: the cells around the point ring by ring until `count` are found within the
 * distance every direction has been searched to, else, past the last ring, the whole market; a market of fewer than
 * SMALL_MARKET_PAGES × `count` dealers is read whole as soon as the first ring step finds too few (decision 082).
 * `total` is how many the searched cells hold (the market's when it came to that).
 */
async function nearestDealers(
  c: ApiContext,
  point: Point,
  services: DealerService[],
  count: number,
): Promise<{ found: Array<Dealer & { distance_km: number }>; total: number }> {
  const offering = services.map((service) => ` AND ${service} = 1`).join('')
  // The nearest `count` of dealers sorted by distance, with their whole rows, and how many there were.
  const nearestAmong = async (sorted: Array<DealerPlace & { distance_km: number }>) => ({
    found: await nearestOf(c, sorted.slice(0, count)),
    total: sorted.length,
  })
  // Their places only, to measure; the whole rows of the nearest `count` afterwards.
  const places: DealerPlace[] = []
  for (const [step, [from, to]] of RING_STEPS.entries()) {
    // One seek a run of cells through `dealers_by_cell`, not one a cell (CROSS JOIN: the runs lead, never the market).
    const runs = ringRuns(point, from, to).map(([first, last]) => `(${first}, ${last})`)
    const { results } = await c.env.DB.prepare(
      `SELECT d.id, d.lat, d.lng FROM (VALUES ${runs.join(', ')}) AS run
         CROSS JOIN dealers d ON d.site = ? AND d.cell BETWEEN run.column1 AND run.column2${offering}`,
    )
      .bind(siteOf(c))
      .all<DealerPlace>()
    places.push(...results)
    const sorted = byDistance(places, point)
    const last = sorted[count - 1]
    if (last && last.distance_km <= searchedKm({ centre: point, rings: to })) return nearestAmong(sorted)
    // Too few around the point: a market this sparse may have fewer than two pages of dealers, read whole at once
    // rather than ring by ring (each ring a seek a grid row, nearly all of them empty).
    if (step === 0 && places.length < count) {
      const small = await smallMarketOf(c, services, SMALL_MARKET_PAGES * count)
      if (small) return nearestAmong(byDistance(small, point))
    }
  }
  const { results } = await c.env.DB.prepare(`SELECT id, lat, lng FROM dealers WHERE site = ?${offering}`)
    .bind(siteOf(c))
    .all<DealerPlace>()
  return nearestAmong(byDistance(results, point))
}

/** A market with at most this many pages of dealers is small: read whole when its first ring step finds too few. */
const SMALL_MARKET_PAGES = 2

/**
 * Every dealer of the caller's market offering `services` when the market has at most `most` dealers, else null:
 * one statement that reads `most + 1` rows at most whatever the market's size (the services are checked here, so a
 * rare one does not read on through a large market).
 */
async function smallMarketOf(c: ApiContext, services: DealerService[], most: number): Promise<DealerPlace[] | null> {
  const { results } = await c.env.DB.prepare(
    'SELECT id, lat, lng, sales, service, test_rides FROM dealers WHERE site = ? LIMIT ?',
  )
    .bind(siteOf(c), most + 1)
    .all<DealerPlace & Record<DealerService, number>>()
  if (results.length > most) return null
  return results
    .filter((dealer) => services.every((service) => dealer[service] === 1))
    .map(({ id, lat, lng }) => ({ id, lat, lng }))
}

/** Where a dealer is: what the nearest are measured by. */
type DealerPlace = { id: number; lat: number; lng: number }

/** The nearest dealers' whole rows, in their order, as the contract's dealers with their distance. */
async function nearestOf(
  c: ApiContext,
  nearest: Array<DealerPlace & { distance_km: number }>,
): Promise<Array<Dealer & { distance_km: number }>> {
  if (nearest.length === 0) return []
  // One seek a dealer from a `VALUES` list (CROSS JOIN: the ids lead): D1 counts an `id IN (…)` list's rows twice.
  const ids = nearest.map((dealer) => `(${dealer.id})`).join(', ')
  const { results } = await c.env.DB.prepare(
    `SELECT d.* FROM (VALUES ${ids}) AS nearest CROSS JOIN dealers d ON d.id = nearest.column1`,
  ).all<DealerRow & { id: number }>()
  const rows = new Map(results.map((row) => [row.id, row]))
  return nearest.flatMap(({ id, distance_km }) => {
    const row = rows.get(id)
    return row ? [{ ...toDealer(row, c.var.locale), distance_km }] : []
  })
}
