/**
 * The types of the two tiers of routes (docs/decisions/034), checked by `npm run typecheck` (tsc), not by vitest: a
 * route of the `/:market` sub-app and the view of its page always have a market; a route outside one, and a view that
 * may be the error page's without a market, cannot read one as if it were there. Each `@ts-expect-error` fails the
 * typecheck when the line below it compiles.
 */
import type { Context } from 'hono'
import { expectTypeOf } from 'vitest'
import type { MarketView, View } from '../../src/components/view'
import type { AppEnv, MarketEnv } from '../../src/env'
import type { Translator } from '../../src/i18n/translator'
import type { Market } from '../../src/market/market'

// Inside a market: the market, its reads and its texts are always there.
expectTypeOf<Context<MarketEnv>['var']['market']>().toEqualTypeOf<Market>()
expectTypeOf<Context<MarketEnv>['var']['t']>().toEqualTypeOf<Translator>()
expectTypeOf<MarketView['market']>().toEqualTypeOf<Market>()

// Outside one (the Worker's own paths, `/`, `/login`, the error page without a market): none to rely on.
export const segmentOutside = (c: Context<AppEnv>) =>
  // @ts-expect-error a route outside a market has none to read
  c.var.market.segment

export const segmentOfAnyView = (view: View) =>
  // @ts-expect-error any page's view may be one without a market (the landing page, login, an error page)
  view.market.segment

// Translating is one call (`t('brand.name')`); the translator still knows its language and direction.
export const translated = (t: Translator) => `${t('brand.name')} ${t.locale} ${t.dir}`
