import type { MiddlewareHandler } from 'hono'
import type { PageCacheRender } from '../page-cache/render-request'

/**
 * How an answer may be kept: by the visitor's browser, by shared caches (the edge's included), and for how long
 * without asking again (0: kept, but revalidated on every use). Decided once per request (docs/decisions/004).
 */
export type AnswerCaching = {
  readonly browser: { readonly keep: boolean; readonly freshSeconds: number }
  readonly shared: { readonly keep: boolean; readonly freshSeconds: number }
  /** The answer is for one visitor: no cache may ever serve it to another. */
  readonly personal: boolean
}

const keep = (freshSeconds = 0) => ({ keep: true, freshSeconds })
const none = { keep: false, freshSeconds: 0 } as const

/** The site's caching policies, from the most to the least cacheable. */
export const Caching = {
  /** Files the same for everyone for an hour (`robots.txt`). */
  hour: { browser: keep(3600), shared: keep(3600), personal: false },
  /** Public pages: any cache may keep them, revalidated on every navigation (the Worker answers from warm caches). */
  shared: { browser: keep(), shared: keep(), personal: false },
  /** Pages for one visitor that their browser may keep (a logged-in visitor's page, the landing page, "near you"). */
  personal: { browser: keep(), shared: none, personal: true },
  /** Answers for one visitor that nothing keeps (account pages, redirects chosen by a cookie or a session). */
  private: { browser: none, shared: none, personal: true },
  /** Answers nothing keeps (errors, maintenance, operator calls): what every answer gets unless its route says more. */
  never: { browser: none, shared: none, personal: false },
} as const satisfies Record<string, AnswerCaching>

/** The stricter of two policies: kept only where both keep, for the shorter time, personal if either is. */
export function stricter(a: AnswerCaching, b: AnswerCaching): AnswerCaching {
  const both = (x: AnswerCaching['browser'], y: AnswerCaching['browser']) =>
    x.keep && y.keep ? keep(Math.min(x.freshSeconds, y.freshSeconds)) : none
  return { browser: both(a.browser, b.browser), shared: both(a.shared, b.shared), personal: a.personal || b.personal }
}

/** The `Cache-Control` header of a policy. */
export function cacheControl({ browser, shared, personal }: AnswerCaching): string {
  if (!browser.keep) return personal ? 'private, no-store' : 'no-store'
  const age = (seconds: number) => (seconds > 0 ? `max-age=${seconds}` : 'no-cache')
  if (personal || !shared.keep) return `private, ${age(browser.freshSeconds)}`
  const edge = shared.freshSeconds !== browser.freshSeconds ? `, s-maxage=${shared.freshSeconds}` : ''
  return browser.freshSeconds > 0 ? `public, ${age(browser.freshSeconds)}${edge}` : `no-cache${edge}`
}

/** One request's decision: what its route allows, lowered by whatever is personal in it. */
export class CachingDecision {
  private allowed: AnswerCaching = Caching.never
  private limit: AnswerCaching | null = null

  /** What the route's answer allows (a page: `shared`; an account page: `private`). Said once, by the route. */
  allow(policy: AnswerCaching): void {
    this.allowed = policy
  }

  /** Something personal in the answer (a session, later a cart or a consent choice) lowers what it allows. */
  lower(policy: AnswerCaching): void {
    this.limit = this.limit ? stricter(this.limit, policy) : policy
  }

  /** The final policy of an answer: an answer that sets (or clears) a cookie is never kept by anyone. */
  final(setsCookie: boolean): AnswerCaching {
    const decided = this.limit ? stricter(this.allowed, this.limit) : this.allowed
    return setsCookie ? stricter(decided, Caching.never) : decided
  }
}

/** What `answerCaching` sets (the decision) and reads at the end (a page-cache render it reports to). */
type CachingVariables = { caching: CachingDecision; pageCacheRender: PageCacheRender | null }

/**
 * Gives every request its caching decision (`c.var.caching`) and writes the one `Cache-Control` of its answer at the
 * end, whatever made the answer (a page, a redirect, the error page): what nobody allowed is never kept.
 *
 * @example
 * app.use(answerCaching())
 * // in a route: c.var.caching.allow(Caching.shared)
 */
export const answerCaching = (): MiddlewareHandler<{ Variables: CachingVariables }> => async (c, next) => {
  const decision = new CachingDecision()
  c.set('caching', decision)
  await next()
  const final = decision.final(c.res.headers.has('Set-Cookie'))
  // A page-cache render tells its page cache what it decided (set by `requestContext`, after this middleware).
  const render = c.get('pageCacheRender')
  if (render) render.caching = final
  c.res.headers.set('Cache-Control', cacheControl(final))
}
