/**
 * The staff console at `/_console` (issue 10, docs/decisions/015): outside the markets, English, no script, its own
 * CSP, never cached, never indexed, its own session. What it offers to its sections (the frame):
 *
 * - `consoleApp` (this file): the Hono sub-app, mounted at `/_console` in src/app.ts among the Worker's own paths. A
 *   section is a sub-app mounted below with one line, `consoleApp.route('/{slug}', section)`, plus its one line in
 *   `CONSOLE_SECTIONS` (src/console/sections.ts: slug, role, nav label, home-page summary).
 * - `consoleGate(role?)` (guard.ts): the gate. No console session → 303 `/_console/login?next=…`; another role → the 403
 *   console page. Sets `c.var.staff` (Staff) and `c.var.staffApi` (the unbound upstream client with the staff token:
 *   `staffCalls(c.var.staffApi)` of src/upstream/contract/staff.ts) and refreshes the session's idle time.
 * - `sendConsolePage(c, { title, body, status?, headers? })` (page.tsx): the layout (header with the staff member's
 *   name and role, the role's nav, the sign-out button), `kind: 'console'` CSP, Caching.never, noindex.
 * - components.tsx: DataTable, DefinitionList, FiltersForm + ConsoleSelect/DateField, Flash, ButtonForm, Pager,
 *   Time/formatTime, withQuery.
 * - access.ts: Cloudflare Access's signed assertion checked first, when ACCESS_TEAM_DOMAIN and ACCESS_AUD are set.
 * - session.ts: the `__Host-Console` session (idle 30 min, absolute 8 h); sign-in.tsx: sign-in and sign-out.
 * - Errors thrown in a console route become console pages (`consoleError`, called by the Worker's `onError` for
 *   `/_console` paths, and its `notFound`); a staff token the API no longer knows (401) ends the session and sends the
 *   staff member to sign in again.
 * - Tests: tests/fixtures/console.ts `consoleLogin(role)` → the `Cookie` header of a fresh console session.
 *
 * @example
 * // a new section, guarded by role:
 * export const casesSection = new Hono<AppEnv>().use(consoleGate('case_handler')).get('/', casesPage)
 * consoleApp.route('/cases', casesSection)
 */
import { type Context, Hono } from 'hono'
import { createElement } from 'react'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { errorName, logEvent } from '../ops/log'
import { loggablePath } from '../ops/request-log'
import { sendRedirect } from '../render/respond'
import { isUpstreamError } from '../upstream/errors'
import { cloudflareAccess } from './access'
import { casesSection } from './cases'
import { consoleLoginUrl, consoleSignIn, ROLE_REFUSED, consoleGate } from './guard'
import { discountCodes } from './discount-codes'
import { ConsoleHome } from './home'
import { leads } from './leads'
import { markets } from './markets'
import { orders } from './orders-section'
import { outbox } from './outbox'
import { purgePages } from './purge'
import { sendConsolePage } from './page'
import { CONSOLE_PATH } from './sections'
import { consoleLoginPage, consoleLogout, submitConsoleLogin } from './sign-in'
import { clearConsoleCookie, consoleSessionsOf } from './session'

export const consoleApp = new Hono<AppEnv>()

// Cloudflare Access's assertion, when configured (ACCESS_TEAM_DOMAIN, ACCESS_AUD): before anything else.
consoleApp.use(cloudflareAccess())

consoleApp.get('/login', consoleLoginPage)
consoleApp.post('/login', submitConsoleLogin)
consoleApp.post('/logout', consoleLogout)
consoleApp.get('/', consoleGate(), consoleHome)

// The sections (CONSOLE_SECTIONS), one line each: consoleApp.route('/{slug}', section).
consoleApp.route('/cases', casesSection)
consoleApp.route('/leads', leads)
consoleApp.route('/orders', orders)
consoleApp.route('/outbox', outbox)
consoleApp.route('/markets', markets)
consoleApp.route('/discount-codes', discountCodes)
consoleApp.route('/purge', purgePages)

/** `GET /_console`: what the signed-in staff member's role may do, with links. */
export function consoleHome(c: Context<AppEnv>): Promise<Response> {
  return sendConsolePage(c, { title: 'Staff console', body: createElement(ConsoleHome, { staff: c.var.staff }) })
}

/** Whether a path is the console's (its errors are console pages). */
export const isConsolePath = (path: string) => path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`)

/** What a console page says for an error status. */
const CONSOLE_ERRORS: Partial<Record<number, string>> = {
  400: 'This request could not be understood.',
  403: ROLE_REFUSED,
  404: 'There is nothing here.',
  413: 'This form is too large.',
  503: 'The console cannot reach its data right now. Please try again in a moment.',
}

/**
 * A console route's error as a console page: a token the API no longer knows ends the session (303 to sign in);
 * anything else its status and a short message. Unexpected errors are logged (name only).
 */
export async function consoleError(c: Context<AppEnv>, error: unknown): Promise<Response> {
  if (isUpstreamError(error) && error.failure === 'unauthorized') {
    const signIn = await consoleSignIn(c).catch(() => null)
    if (signIn) await consoleSessionsOf(c)?.end(signIn.id)
    clearConsoleCookie(c)
    const url = new URL(c.req.url)
    return sendRedirect(c, consoleLoginUrl(c.req.method === 'GET' ? url.pathname + url.search : '/_console'), 303)
  }
  const pageError = PageError.from(error)
  if (pageError.status >= 500 && pageError.kind === 'server-error') {
    c.var.log.error = errorName(error)
    logEvent('error', 'unhandled', { path: loggablePath(c.req.path), error: errorName(error) })
  }
  // A refusal says why (403, 413, 429: the error's own message); a missing page or a failure says it in the console's words.
  const own = pageError.status !== 404 && pageError.status < 500 && pageError.message ? pageError.message : null
  const message = own ?? CONSOLE_ERRORS[pageError.status] ?? 'Something went wrong on our side. Please try again.'
  const title =
    message === ROLE_REFUSED
      ? 'Not for your role'
      : pageError.status === 404
        ? 'Not found'
        : pageError.status === 403
          ? 'Not allowed'
          : 'Something is in the way'
  return sendConsolePage(c, { title, status: pageError.status, body: createElement('p', null, message) })
}
