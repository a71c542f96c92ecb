import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { errorName, logEvent } from '../ops/log'
import type { Feature } from '../../contract/schemas'
import type { Area } from '../upstream/areas'
import { type PageAvailability, availabilityOf } from './availability'

/**
 * The request's availability, decided once: the market's when the path has one (after `resolveMarket`), else the
 * brand's features alone (`/login`, `/logout`); the contract's areas the backend lacks are off either way.
 */
export async function availableFor<E extends AppEnv>(c: Context<E>): Promise<PageAvailability> {
  const decided = c.get('available')
  if (decided) return decided
  const available = availabilityOf(c.get('market') ?? null, await brandFeatures(c), c.get('areas').offPages())
  c.set('available', available)
  return available
}

/** The brand's features; when they cannot be read at all, every feature counts as on (logged). */
async function brandFeatures<E extends AppEnv>(c: Context<E>): Promise<Feature[]> {
  return c
    .get('lookups')
    .features()
    .catch((error: unknown) => {
      logEvent('warn', 'features_unavailable', { error: errorName(error) })
      return []
    })
}

/**
 * A route that belongs to a switchable section answers "Page Not Found" when it is off, before its page asks the
 * API for anything.
 *
 * @example
 * market.get('/search/:type', requirePage('search'), searchPage)
 */
export const requirePage =
  (page: string): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (!(await availableFor(c)).has(page)) throw PageError.pageNotFound(c.req.url)
    await next()
  }

/**
 * A route of an area of the contract that stays open whatever its market's state (the whistleblower channel, even
 * under maintenance) answers "Page Not Found" only when the backend lacks the area and the Worker does not hold it.
 *
 * @example
 * market.get('/whistleblower-form', requireArea('whistleblower'), reportPage)
 */
export const requireArea =
  (area: Area): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (!c.get('areas').served(area) && !c.get('areas').held(area)) throw PageError.pageNotFound(c.req.url)
    await next()
  }
