import { Hono } from 'hono'
import { fromBase32, totpAt, verifyTotp } from '../totp'
import { acknowledgedAnswer } from '../../contract/account-schemas'
import { SUBMISSION_KINDS } from '../../contract/form-schemas'
import {
  MARKET_SWITCHES,
  type MarketSwitch,
  marketAnswer,
  marketChangeRequest,
  marketListAnswer,
  outboxAnswer,
  outboxMailAnswer,
  type Staff,
  staffAnswer,
  staffEventRequest,
  staffEventsAnswer,
  staffLoginAnswer,
  staffLoginRequest,
  submissionAnswer,
  submissionListAnswer,
} from '../../contract/staff-schemas'
import {
  type ApiContext,
  type ApiEnv,
  badParameter,
  invalid,
  jsonBody,
  notFound,
  parseJson,
  positiveInt,
  respond,
} from '../context'
import { demoAccountRefused } from '../demo-accounts'
import { newToken, tokenHash, verifyPassword } from '../passwords'
import { STAFF_TOKEN_HOURS, bearerStaff, staffOnly } from '../staff-auth'
import { keysetParams } from '../keyset'
import { conditions, keysetList, staffListQuery } from '../staff-lists'
import { bearerToken, unauthorized } from './auth'

/** A TOTP step, in seconds (RFC 6238's default; what authenticator apps use). */
const TOTP_STEP_SECONDS = 30
/** How many submissions or mails a page of the console's lists holds. */
const STAFF_PAGE_SIZE = 25

type StaffRow = Staff & { password_hash: string; totp_secret: string; totp_last_step: number; demo: number }
type SubmissionRow = {
  id: number
  reference: string
  kind: (typeof SUBMISSION_KINDS)[number]
  site: string
  locale: string
  email: string
  created_at: string
  handled_at: string | null
  fields?: string
  file_key?: string | null
  handled_by?: string | null
}
type MarketRow = { id: number; slug: string; name: string; settings: string; locales: string | null }

/**
 * The staff calls of the embedded API (docs/api.md "Staff console"): sign-in with a password and a TOTP code, the
 * token's staff member, sign-out; for editors only, the lead-form submissions (handled or not), the outbox, the
 * markets' switches and the staff events (what was changed, by whom, when). The cases are reference-api/resources/cases.ts.
 */
export const staff = new Hono<ApiEnv>()

/**
 * `POST api/staff/login`: 422 with one message for any wrong part (unknown address, wrong password, wrong code, a code
 * whose step was already used, an inactive member), so nothing tells which. A code is good for its step and the steps
 * either side (clock drift) and only once: the step is recorded, and a step not after the last one used is refused.
 */
staff.post('/staff/login', async (c) => {
  const body = staffLoginRequest.safeParse(await jsonBody(c))
  const refused = () => c.json({ message: 'These credentials do not match our records.' }, 422)
  if (!body.success) return refused()
  const row = await c.env.DB.prepare(
    'SELECT id, email, name, role, password_hash, totp_secret, totp_last_step, demo FROM staff_users WHERE email = ? AND active = 1',
  )
    .bind(body.data.email)
    .first<StaffRow>()
  // The password is checked (slowly) whether or not the address is known.
  const passwordRight = await verifyPassword(body.data.password, row?.password_hash ?? null)
  if (!row || !passwordRight || demoAccountRefused(row, c.env.PUBLIC_ORIGIN)) return refused()
  const now = Date.now()
  const step = await matchedStep(row.totp_secret, body.data.code, now)
  if (step === null || step <= row.totp_last_step) return refused()
  // Conditional, so that of two sign-ins with the same code at once, one wins.
  const used = await c.env.DB.prepare(
    'UPDATE staff_users SET totp_last_step = ?2 WHERE id = ?1 AND totp_last_step < ?2',
  )
    .bind(row.id, step)
    .run()
  if (!used.meta.changes) return refused()
  const token = newToken()
  const expiresAt = new Date(now + STAFF_TOKEN_HOURS * 3600_000).toISOString()
  await c.env.DB.batch([
    c.env.DB.prepare('INSERT INTO staff_tokens (token_hash, staff_id, expires_at) VALUES (?, ?, ?)').bind(
      await tokenHash(token),
      row.id,
      expiresAt,
    ),
    // Expired tokens of the member go at each sign-in.
    c.env.DB.prepare(
      "DELETE FROM staff_tokens WHERE staff_id = ? AND expires_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
    ).bind(row.id),
  ])
  return respond(c, staffLoginAnswer, {
    access_token: token,
    expires_at: expiresAt,
    staff: { id: row.id, email: row.email, name: row.name, role: row.role },
  })
})

/** The step of a good code (the latest of now and its neighbours that matches), or null. */
async function matchedStep(secretBase32: string, code: string, now: number): Promise<number | null> {
  if (!(await verifyTotp(secretBase32, code, now))) return null
  const secret = fromBase32(secretBase32)
  if (!secret) return null
  const current = Math.floor(now / 1000 / TOTP_STEP_SECONDS)
  for (const step of [current + 1, current, current - 1]) {
    if ((await totpAt(secret, step * TOTP_STEP_SECONDS * 1000)) === code.trim()) return step
  }
  return null
}

/** `GET api/staff/me`: the bearer's staff member, or 401. */
staff.get('/staff/me', async (c) => {
  const member = await bearerStaff(c)
  return member ? respond(c, staffAnswer, { data: member }) : unauthorized(c)
})

/** `POST api/staff/logout`: revokes the bearer's token (401 when it is not one). */
staff.post('/staff/logout', async (c) => {
  const token = bearerToken(c)
  const revoked = token
    ? await c.env.DB.prepare('DELETE FROM staff_tokens WHERE token_hash = ?')
        .bind(await tokenHash(token))
        .run()
    : null
  if (!revoked?.meta.changes) return unauthorized(c)
  return respond(c, acknowledgedAnswer, { message: 'Signed out.' })
})

// Editors only from here.
for (const path of ['/staff/submissions/*', '/staff/outbox/*', '/staff/markets/*', '/staff/events/*']) {
  staff.use(path, staffOnly('editor'))
}

/** Records a staff event (who, what, which target, the change as JSON). */
export const staffEvent = (c: ApiContext, action: string, target: string, detail: unknown) =>
  c.env.DB.prepare('INSERT INTO staff_events (staff_id, action, target, detail) VALUES (?, ?, ?, ?)').bind(
    c.var.staff.id,
    action,
    target,
    JSON.stringify(detail),
  )

/**
 * `GET api/staff/submissions?site=&kind=&from=&to=&handled=&cursor=&per_page=`: newest first, paged by keyset
 * (docs/decisions/068); `from` and `to` are dates (inclusive, UTC), `handled` 1 or 0.
 */
staff.get('/staff/submissions', async (c) => {
  const query = staffListQuery(c, STAFF_PAGE_SIZE)
  if (query instanceof Response) return query
  const { paging, site, from, to } = query
  const { kind, handled } = c.req.query()
  if (kind !== undefined && !(SUBMISSION_KINDS as readonly string[]).includes(kind))
    return badParameter(c, 'kind', SUBMISSION_KINDS.join(', '))
  if (handled !== undefined && handled !== '0' && handled !== '1') return badParameter(c, 'handled', '1 or 0')
  const where = conditions()
  if (site) where.add('site = ?', site)
  if (kind) where.add('kind = ?', kind)
  if (from) where.add('created_at >= ?', `${from}T00:00:00`)
  if (to) where.add('created_at < ?', nextDay(to))
  if (handled !== undefined) where.add(handled === '1' ? 'handled_at IS NOT NULL' : 'handled_at IS NULL')
  const page = await keysetList<SubmissionRow>(c, paging, {
    select: 'SELECT id, reference, kind, site, locale, email, created_at, handled_at FROM form_submissions',
    where,
    sort: 'created_at',
    id: 'id',
    cursorOf: (row) => ({ at: row.created_at, id: row.id }),
  })
  return respond(c, submissionListAnswer, page)
})

/** The day after a date, as the start of that day (a date range's exclusive end). */
function nextDay(date: string): string {
  const next = new Date(`${date}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() + 1)
  return next.toISOString().slice(0, 19)
}

const SUBMISSION_COLUMNS = `f.id, f.reference, f.kind, f.site, f.locale, f.email, f.created_at, f.handled_at, f.fields, f.file_key, s.name AS handled_by
  FROM form_submissions f LEFT JOIN staff_users s ON s.id = f.handled_by`

async function submissionOf(c: ApiContext, id: number) {
  const row = await c.env.DB.prepare(`SELECT ${SUBMISSION_COLUMNS} WHERE f.id = ?`).bind(id).first<SubmissionRow>()
  return (
    row && {
      ...row,
      fields: parseJson<Record<string, unknown>>(row.fields, {}),
      file_key: row.file_key ?? null,
      handled_by: row.handled_by ?? null,
    }
  )
}

/** `GET api/staff/submissions/{id}`: the submission in full, with who handled it. */
staff.get('/staff/submissions/:id', async (c) => {
  const id = positiveInt(c.req.param('id'))
  const submission = id && (await submissionOf(c, id))
  return submission ? respond(c, submissionAnswer, { data: submission }) : notFound(c)
})

/** `POST api/staff/submissions/{id}/handled`: marks it handled (the first time counts) and records a staff event. */
staff.post('/staff/submissions/:id/handled', async (c) => {
  const id = positiveInt(c.req.param('id'))
  if (!id) return notFound(c)
  const changed = await c.env.DB.prepare(
    "UPDATE form_submissions SET handled_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), handled_by = ? WHERE id = ? AND handled_at IS NULL",
  )
    .bind(c.var.staff.id, id)
    .run()
  const submission = await submissionOf(c, id)
  if (!submission) return notFound(c)
  if (changed.meta.changes)
    await staffEvent(c, 'submission_handled', `submission:${id}`, { reference: submission.reference }).run()
  return respond(c, submissionAnswer, { data: submission })
})

/**
 * Mails the editors' outbox never shows: a password reset's holds a link that takes over the account; a whistleblower's
 * "there is news" would tie an address to a report (only the case handlers' channel may know it).
 */
export const PRIVATE_MAIL_KINDS = ['password_reset', 'whistleblower_news'] as const
const SHOWN_MAILS = `kind NOT IN (${PRIVATE_MAIL_KINDS.map((kind) => `'${kind}'`).join(', ')})`

/** A row of the outbox as the staff read it, its state said in one word. */
const MAIL_COLUMNS = `id, recipient, subject, body, kind, created_at, sent_at, provider_id, failure, attempts,
  CASE WHEN sent_at IS NOT NULL THEN 'sent' WHEN failed_at IS NOT NULL THEN 'failed' ELSE 'queued' END AS state`

/** `GET api/staff/outbox?kind=&cursor=&per_page=`: the mails, newest first, paged by keyset (not the private ones). */
staff.get('/staff/outbox', async (c) => {
  const paging = keysetParams(c, STAFF_PAGE_SIZE)
  if (paging instanceof Response) return paging
  const kind = c.req.query('kind')
  if (kind !== undefined && !/^[a-z_]{1,40}$/.test(kind))
    return badParameter(c, 'kind', 'a mail kind (lead_notification)')
  const where = conditions()
  where.add(SHOWN_MAILS)
  if (kind) where.add('kind = ?', kind)
  const page = await keysetList<{ id: number }>(c, paging, {
    select: `SELECT ${MAIL_COLUMNS} FROM outbox`,
    where,
    id: 'id',
    cursorOf: (row) => ({ at: '', id: row.id }),
  })
  return respond(c, outboxAnswer, page as never)
})

/** `GET api/staff/outbox/{id}`: one mail in full. */
staff.get('/staff/outbox/:id', async (c) => {
  const id = positiveInt(c.req.param('id'))
  const mail =
    id &&
    (await c.env.DB.prepare(`SELECT ${MAIL_COLUMNS} FROM outbox WHERE id = ? AND ${SHOWN_MAILS}`).bind(id).first())
  return mail ? respond(c, outboxMailAnswer, { data: mail as never }) : notFound(c)
})

const MARKET_QUERY = `SELECT s.id, s.slug, s.name, s.settings, (SELECT group_concat(locale) FROM (SELECT locale FROM site_locales WHERE site_id = s.id ORDER BY position)) AS locales FROM sites s`

function marketOf(row: MarketRow) {
  const settings = parseJson<Record<string, unknown>>(row.settings, {})
  const switches = Object.fromEntries(MARKET_SWITCHES.map((name) => [name, settings[name] === true])) as Record<
    MarketSwitch,
    boolean
  >
  return { country: row.slug, name: row.name, locales: row.locales ? row.locales.split(',') : [], ...switches }
}

/** `GET api/staff/markets`: every market with its four switches. */
staff.get('/staff/markets', async (c) => {
  const { results } = await c.env.DB.prepare(`${MARKET_QUERY} ORDER BY s.position, s.slug`).all<MarketRow>()
  return respond(c, marketListAnswer, { data: results.map(marketOf) })
})

/**
 * `POST api/staff/markets/{country}`: changes the given switches in the site's settings and records a staff event
 * with what changed (`{"under_maintenance":{"from":false,"to":true}}`); nothing changed, nothing recorded.
 */
staff.post('/staff/markets/:country', async (c) => {
  const country = c.req.param('country')
  if (!/^[a-z]{2,3}$/.test(country)) return notFound(c)
  const body = marketChangeRequest.safeParse(await jsonBody(c))
  if (!body.success) return invalid(c, body.error)
  const row = await c.env.DB.prepare(`${MARKET_QUERY} WHERE s.slug = ?`).bind(country).first<MarketRow>()
  if (!row) return notFound(c)
  const settings = parseJson<Record<string, unknown>>(row.settings, {})
  const change: Record<string, { from: boolean; to: boolean }> = {}
  for (const name of MARKET_SWITCHES) {
    const to = body.data[name]
    if (to !== undefined && (settings[name] === true) !== to) change[name] = { from: settings[name] === true, to }
  }
  if (Object.keys(change).length) {
    const next = { ...settings, ...Object.fromEntries(Object.entries(change).map(([name, { to }]) => [name, to])) }
    await c.env.DB.batch([
      c.env.DB.prepare('UPDATE sites SET settings = ? WHERE id = ?').bind(JSON.stringify(next), row.id),
      staffEvent(c, 'market_changed', `market:${country}`, change),
    ])
    row.settings = JSON.stringify(next)
  }
  return respond(c, marketAnswer, { data: marketOf(row) })
})

/** `POST api/staff/events`: records something an editor did at the edge (a cache purge). */
staff.post('/staff/events', async (c) => {
  const body = staffEventRequest.safeParse(await jsonBody(c))
  if (!body.success) return invalid(c, body.error)
  await staffEvent(c, body.data.action, body.data.target, {}).run()
  return respond(c, acknowledgedAnswer, { message: 'Recorded.' }, 201)
})

/** `GET api/staff/events?target=`: a target's events (`market:it`, `cache:everything`), newest first, at most 50. */
staff.get('/staff/events', async (c) => {
  const target = c.req.query('target')
  if (!target || target.length > 80) return badParameter(c, 'target', 'what the events concern (market:it)')
  const { results } = await c.env.DB.prepare(
    `SELECT e.action, e.target, e.detail, s.name AS staff_name, e.at FROM staff_events e JOIN staff_users s ON s.id = e.staff_id
      WHERE e.target = ? ORDER BY e.at DESC, e.id DESC LIMIT 50`,
  )
    .bind(target)
    .all<{ action: string; target: string; detail: string; staff_name: string; at: string }>()
  return respond(c, staffEventsAnswer, { data: results })
})
