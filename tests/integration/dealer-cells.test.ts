import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import { cellOf, ringCells, searchedKm } from '../../reference-api/dealer-cells'
import { byDistance, distanceKm, type Point } from '../../contract/distance'
import { LOCATOR_DEALERS } from '../../src/pages/dealer-locator'
import { clearCaches, visit } from '../fixtures/worker'

/** A market of its own for these dealers (the API lists any `X-Tenant`'s). */
const SITE = 'zz'
/** Dealers scattered over a country's worth of map, and more on the grid's lines. */
const SCATTERED = 1500

/** A deterministic sequence in [0, 1) (a linear congruential generator): the same dealers on every run. */
function sequence(seed: number) {
  let state = seed
  return () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32
    return state / 2 ** 32
  }
}

type Placed = Point & { slug: string; test_rides: number }

/** Positions around northern Italy (about 600 × 600 km), some exactly on and a hair off the cells' lines. */
function positions(prefix = 'z'): Placed[] {
  const next = sequence(31)
  const placed: Placed[] = []
  for (let i = 0; i < SCATTERED; i++) {
    placed.push({
      slug: `${prefix}-${i}`,
      lat: 43 + next() * 5.5,
      lng: 7 + next() * 7.5,
      test_rides: next() < 0.3 ? 1 : 0,
    })
  }
  for (let i = 0; i < 60; i++) {
    const lat = 45 + Math.floor(i / 12) * 0.25 + (i % 3 === 0 ? 0 : i % 3 === 1 ? 1e-6 : -1e-6)
    const lng = 9 + (i % 12) * 0.25 + (i % 2 ? 1e-6 : -1e-6)
    placed.push({ slug: `${prefix}-line-${i}`, lat, lng, test_rides: i % 4 === 0 ? 1 : 0 })
  }
  return placed
}

/** Dealers on both sides of the antimeridian (Fiji's), for the grid's wrap. */
const ACROSS = [
  { slug: 'fiji-east', lat: -17.7, lng: 179.98, test_rides: 1 },
  { slug: 'fiji-west', lat: -17.72, lng: -179.97, test_rides: 1 },
  { slug: 'fiji-far', lat: -16.5, lng: 178.2, test_rides: 1 },
]

async function insert(site: string, dealers: Placed[]) {
  const statements = dealers.map((d) =>
    env.DB.prepare(
      'INSERT INTO dealers (slug, site, name, address, city, country_code, lat, lng, test_rides) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).bind(d.slug, site, d.slug, '1 Via Roma', 'Citta', 'IT', d.lat, d.lng, d.test_rides),
  )
  for (let i = 0; i < statements.length; i += 200) await env.DB.batch(statements.slice(i, i + 200))
}

/** D1 with every statement's rows read summed (from D1's own result metadata), for the API under test. */
function countingDb() {
  const counted = { rowsRead: 0 }
  const db = env.DB
  const wrapStatement = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, name) {
        if (name === 'bind') return (...values: unknown[]) => wrapStatement(target.bind(...values))
        if (name === 'all')
          return async () => {
            const result = await target.all()
            counted.rowsRead += result.meta.rows_read ?? 0
            return result
          }
        const value = Reflect.get(target, name)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  const DB = new Proxy(db, {
    get(target, name) {
      if (name === 'prepare') return (sql: string) => wrapStatement(target.prepare(sql))
      const value = Reflect.get(target, name)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { DB, counted }
}

/** `GET api/front/dealers?lat=&lng=…` of a market, with the rows it read. */
async function nearest(site: string, point: Point, query = '') {
  const { DB, counted } = countingDb()
  const request = new Request(
    `http://embedded.invalid/api/front/dealers?lat=${point.lat.toFixed(6)}&lng=${point.lng.toFixed(6)}${query}`,
    { headers: { 'X-Tenant': site, 'X-Locale': 'it' } },
  )
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], { ...env, DB })
  const body = (await response.json()) as {
    data: Array<{ slug: string; distance_km: number }>
    meta: { total: number }
  }
  return { status: response.status, slugs: body.data.map((d) => d.slug), body, rowsRead: counted.rowsRead }
}

/** The slugs of the `count` nearest by a sort of them all (the answer the cells must give). */
const bruteForce = (dealers: Placed[], point: Point, count: number) =>
  byDistance(dealers, point)
    .slice(0, count)
    .map((d) => d.slug)

/** Two lists equal but for neighbours the same distance away (to the metre) in either order. */
function expectSameNearest(found: string[], expected: string[], all: Placed[], point: Point) {
  expect(found).toHaveLength(expected.length)
  const at = new Map(all.map((d) => [d.slug, Math.round(distanceKm(point, d) * 1000)]))
  expect(found.map((slug) => at.get(slug))).toEqual(expected.map((slug) => at.get(slug)))
}

describe('dealers found by their grid cell', () => {
  const all = positions()

  beforeAll(async () => {
    await insert(SITE, all)
    await insert('zf', ACROSS)
  })

  it('computes the cell SQLite computes for every dealer, on the lines too', async () => {
    const { results } = await env.DB.prepare('SELECT lat, lng, cell FROM dealers WHERE site = ?')
      .bind(SITE)
      .all<Point & { cell: number }>()
    expect(results).toHaveLength(all.length)
    for (const row of results) {
      const { row: y, column: x } = cellOf(row)
      expect(row.cell, `${row.lat},${row.lng}`).toBe(y * 2000 + x)
    }
  })

  it('answers the nearest first exactly as a brute-force sort, from anywhere (cell lines and corners included)', async () => {
    const next = sequence(7)
    const origins: Point[] = [
      ...Array.from({ length: 12 }, () => ({ lat: 43.5 + next() * 4.5, lng: 7.5 + next() * 6.5 })),
      { lat: 45.25, lng: 9.5 },
      { lat: 45.249999, lng: 9.750001 },
      { lat: 45.5, lng: 10 },
      { lat: 42.6, lng: 6.5 },
      { lat: 49, lng: 15 },
    ]
    for (const origin of origins) {
      for (const count of [1, 3, 50]) {
        const { status, slugs } = await nearest(SITE, origin, `&per_page=${count}`)
        expect(status).toBe(200)
        expectSameNearest(slugs, bruteForce(all, origin, count), all, origin)
      }
    }
  })

  it('filters by services before counting the nearest, and pages on', async () => {
    const origin = { lat: 45.4642, lng: 9.19 }
    const riding = all.filter((d) => d.test_rides === 1)
    const { slugs } = await nearest(SITE, origin, '&services=test_rides&per_page=20')
    expectSameNearest(slugs, bruteForce(riding, origin, 20), riding, origin)
    const second = await nearest(SITE, origin, '&services=test_rides&per_page=20&page=2')
    expectSameNearest(second.slugs, bruteForce(riding, origin, 40).slice(20), riding, origin)
  })

  it('finds its neighbours across the antimeridian', async () => {
    const { slugs, body } = await nearest('zf', { lat: -17.71, lng: 179.99 }, '&per_page=2')
    expect(slugs).toEqual(['fiji-east', 'fiji-west'])
    expect(body.data[1]?.distance_km).toBeLessThan(5)
    expect(ringCells({ lat: 0, lng: 179.9 }, 1, 1)).toContain(cellOf({ lat: 0, lng: -179.9 }).row * 2000)
  })

  it('reads the dealers of the cells it searched, not the market', async () => {
    const origin = { lat: 45.4642, lng: 9.19 }
    const { rowsRead, body } = await nearest(SITE, origin, '&per_page=50')
    expect(body.data).toHaveLength(50)
    // 1,560 dealers in the market; the square that holds the 50 nearest holds a few hundred at most.
    expect(rowsRead).toBeLessThan(400)
    expect(body.meta.total).toBeLessThan(SCATTERED / 3)
  })

  it('searches a sparse market ring by ring with a seek a run of cells, not a probe a cell: thousands of empty cells', async () => {
    // Three dealers: every ring (3,840 cells, most of them empty) is searched, then the market's list.
    const { rowsRead, slugs } = await nearest('zf', { lat: -17.7, lng: 179.9 }, '&per_page=20')
    expect(slugs).toEqual(['fiji-east', 'fiji-west', 'fiji-far'])
    expect(rowsRead).toBeLessThan(400)
  })

  it('knows how far it has searched: no point outside the square is nearer', () => {
    const next = sequence(3)
    for (let i = 0; i < 200; i++) {
      const centre = { lat: -60 + next() * 120, lng: -180 + next() * 360 }
      const rings = Math.floor(next() * 8)
      const km = searchedKm({ centre, rings })
      const { row, column } = cellOf(centre)
      // Points just outside the square's sides and corners.
      for (const [dy, dx] of [
        [rings + 1, 0],
        [-rings - 1, 0],
        [0, rings + 1],
        [0, -rings - 1],
        [rings + 1, rings + 1],
        [-rings - 1, -rings - 1],
      ] as const) {
        for (const [fy, fx] of [
          [0.001, 0.001],
          [0.999, 0.999],
          [0.5, 0.001],
        ] as const) {
          const outside = { lat: (row + dy + fy) / 4 - 90, lng: (column + dx + fx) / 4 - 180 }
          if (Math.abs(outside.lat) >= 90) continue
          expect(distanceKm(centre, outside)).toBeGreaterThanOrEqual(km - 1e-6)
        }
      }
    }
  })
})

describe('the locator over a thousand dealers', () => {
  const all = positions('it')

  beforeAll(async () => {
    await env.DB.prepare("DELETE FROM dealers WHERE site = 'it'").run()
    await insert('it', all)
    await clearCaches()
  })

  /** The dealers' slugs in the order the locator lists them. */
  const listed = (html: string) => [...html.matchAll(/<h2><a href="\/it-it\/dealers\/([a-z0-9-]+)">/g)].map((m) => m[1])

  it('lists the LOCATOR_DEALERS (20) nearest to a town typed, as a brute-force sort', async () => {
    const milano = await env.DB.prepare(
      "SELECT lat, lng FROM places WHERE site = 'it' AND name = 'Milano'",
    ).first<Point>()
    expect(milano).not.toBeNull()
    const { status, text } = await visit('/it-it/rivenditori?near=Milano')
    expect(status).toBe(200)
    expectSameNearest(listed(text) as string[], bruteForce(all, milano as Point, LOCATOR_DEALERS), all, milano as Point)
  })

  it('lists the LOCATOR_DEALERS (20) nearest to a position the browser gave, as a brute-force sort', async () => {
    const position = { lat: 44.4949, lng: 11.3426 }
    const { status, text } = await visit(`/it-it/rivenditori?lat=${position.lat}&lng=${position.lng}`)
    expect(status).toBe(200)
    expectSameNearest(listed(text) as string[], bruteForce(all, position, LOCATOR_DEALERS), all, position)
  })
})
