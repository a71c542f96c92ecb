import { Hono } from 'hono'
import { profileAnswer } from '../../contract/account-schemas'
import { type ApiEnv, respond } from '../context'
import { addresses } from './addresses'
import { requireBearer } from './auth'
import { bikes } from './bikes'
import { orders } from './orders'
import { overview } from './overview'
import { selfService } from './self-service'

/**
 * `api/account/*`: the bearer's own profile, addresses, bikes and orders (and all of them at once for the overview), and their own changes to the account (its
 * profile, password and erasure); every call needs the token (else 401).
 */
export const account = new Hono<ApiEnv>()
  // The overview looks its token up in its own batch (docs/decisions/066): routed before the token's own lookup.
  .route('/', overview)
  .use('/account/*', requireBearer)
  .get('/account/profile', (c) => respond(c, profileAnswer, { data: c.var.user }))
  .route('/', addresses)
  .route('/', bikes)
  .route('/', orders)
  .route('/', selfService)
