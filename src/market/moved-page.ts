import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import type { MarketEnv } from '../env'

/**
 * A content page asked for by the slug it had before the market's slugs were in its language (`/it-it/work-with-us`,
 * now `/it-it/lavora-con-noi`; `/ch-fr/probefahrt`, a sibling locale's): the same page at its slug, `rest` of the
 * path (`/sent`) and the query kept. A bookmark or a link from elsewhere is moved for good: `301`, which any cache may
 * keep; a form posted from a page rendered before the change is sent on with its body: `308`. Null when the slug
 * was never a page of the market, or its page is not available (switched off: "Page Not Found" as before).
 */
export function movedPageRedirect(c: Context<MarketEnv>): Response | null {
  const { market, available } = c.var
  const slug = c.req.param('page') ?? ''
  const page = available.movedPage(slug)
  if (!page) return null
  const url = new URL(c.req.url)
  const rest = url.pathname.slice(`/${market.segment}/${slug}`.length)
  const read = c.req.method === 'GET' || c.req.method === 'HEAD'
  if (read && !url.search) c.var.caching.allow(Caching.shared)
  return c.redirect(`/${market.segment}/${page.slug}${rest}${url.search}`, read ? 301 : 308)
}
