import type { Context } from 'hono'
import { configOf } from '../config'
import type { AppEnv } from '../env'
import { embeddedReferenceApi } from '../upstream/reference-api'
import { keyringOf } from '../whistleblower/keyring'
import { rewrapReportKey } from '../whistleblower/sealed'
import { resealRecipient } from '../whistleblower/sealed-recipient'
import { logEvent } from './log'
import { operatorRefusal } from './purge'

/** Rows per request when none is asked: each request stays short, however many cases there are. */
export const REWRAP_BATCH = 50
const REWRAP_BATCH_MAX = 200

/**
 * `POST /_rewrap/whistleblower?part=cases|recipients&after={id}` (operators, `Authorization: Bearer {PURGE_SECRET}` as
 * `/_purge` takes it; docs/decisions/048): moves one batch of what the embedded API stores under an older whistleblower
 * key to the newest one — the cases' wrapped keys (their texts and attachments stay sealed with them) or the queued
 * sealed recipients — and answers the counts and the id to go on after (`next`, null when the part is done).
 * Idempotent: a value already under the newest key is counted and left. `npm run rewrap:whistleblower` loops over it.
 *
 * @example
 * curl -X POST -H "Authorization: Bearer $PURGE_SECRET" "https://site.example/_rewrap/whistleblower?part=cases&after=0"
 */
export async function rewrapWhistleblower(c: Context<AppEnv>): Promise<Response> {
  const refused = await operatorRefusal(c, 're-wrapping')
  if (refused) return refused
  const keyring = keyringOf(c.env)
  if (!keyring) return c.json({ error: 're-wrapping needs the whistleblower keys (WHISTLEBLOWER_KEYS)' }, 503)
  const referenceApi = embeddedReferenceApi()
  if (!referenceApi || !(configOf(c.env).upstream.kind === 'embedded' || c.var.areas.held('whistleblower')))
    return c.json({ error: 'the whistleblower channel is stored by the backend at UPSTREAM_URL, not here' }, 409)
  const part = c.req.query('part') ?? 'cases'
  const after = c.req.query('after') ?? '0'
  const limit = c.req.query('limit') ?? String(REWRAP_BATCH)
  if ((part !== 'cases' && part !== 'recipients') || !/^[0-9]{1,12}$/.test(after) || !/^[1-9][0-9]{0,2}$/.test(limit))
    return c.json({ error: 'part must be cases or recipients, after an id, limit 1 to 200' }, 400)
  const rewrap =
    part === 'cases'
      ? (stored: string) => rewrapReportKey(keyring, stored)
      : (stored: string) => resealRecipient(keyring, stored)
  const batch = await referenceApi.rewrapSealed(
    c.env.DB,
    part,
    rewrap,
    Number(after),
    Math.min(Number(limit), REWRAP_BATCH_MAX),
  )
  logEvent(batch.failed > 0 ? 'error' : 'info', 'whistleblower_rewrapped', {
    part,
    key_id: keyring.newest.id,
    ...batch,
  })
  return c.json({ part, key_id: keyring.newest.id, ...batch })
}
