import type { Context } from 'hono'
import type { Chrome, MarketView } from '../components/view'
import type { MarketEnv } from '../env'
import { PageError } from '../errors/page-error'
import { viewOf } from '../render/respond'
import { loadChrome } from './chrome'

/** What a slug in a URL may look like (products, articles, dealers): anything else is not looked up at all. */
const SLUG = /^[a-z0-9-]{1,120}$/

/**
 * The page of one thing found by the slug in its URL (a product, an article, a dealer): the thing and the layout's
 * chrome, loaded together, and the page's view. A malformed or unknown slug is "Page Not Found".
 */
export async function findBySlug<T>(
  c: Context<MarketEnv>,
  find: (slug: string) => Promise<T | null>,
): Promise<{ found: T; chrome: Chrome; view: MarketView }> {
  const { market, t } = c.var
  const slug = c.req.param('slug') ?? ''
  const [found, chrome] = await Promise.all([SLUG.test(slug) ? find(slug) : null, loadChrome(c)])
  if (!found) throw PageError.pageNotFound(c.req.url)
  return { found, chrome, view: viewOf(c, t, market) }
}
