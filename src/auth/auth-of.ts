import type { Context } from 'hono'
import type { MarketRef } from '../cache/lookups'
import type { AppEnv } from '../env'
import { authCalls, type AuthCalls } from '../upstream/contract/auth'

/**
 * The auth calls of a request, speaking for its market, or for the one given (`/login` has none in its path), or
 * for none.
 */
export function authOf<E extends AppEnv>(c: Context<E>, market: MarketRef | undefined = c.get('market')): AuthCalls {
  return authCalls(market ? c.var.upstream.forMarket(market) : c.var.upstream)
}
