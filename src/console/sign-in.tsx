import type { Context } from 'hono'
import { attemptKeys, attemptRefused, ATTEMPT_WINDOW_SECONDS, countAgainstAccount } from '../auth/attempts'
import type { AppEnv } from '../env'
import { readForm } from '../forms/read-form'
import { logEvent } from '../ops/log'
import { sendRedirect } from '../render/respond'
import { staffCalls } from '../upstream/contract/staff'
import { UpstreamError, unlessRefused } from '../upstream/errors'
import { staffLoginRequest } from '../../contract/staff-schemas'
import { Flash } from './components'
import { accessIdentityOf, sameAccessEmail } from './access'
import { consoleNext, consoleSignIn, revokeStaffToken } from './guard'
import { sendConsolePage } from './page'
import { CONSOLE_LOGIN_PATH, CONSOLE_PATH } from './sections'
import { clearConsoleCookie, consoleSessionsOf, setConsoleCookie } from './session'

/** The one message of a refused sign-in, whichever part was wrong. */
export const SIGN_IN_REFUSED = 'The e-mail address, the password or the code is not right.'
export const SIGN_IN_LIMITED = 'Too many attempts. Please wait a minute and try again.'
export const SIGNED_OUT = 'You are signed out.'
export const SIGN_IN_NOT_ACCESS = 'Sign in with the staff account of the address you gave Cloudflare Access.'

type SignInState = { email?: string; next?: string | null; failure?: string; notice?: string }

function sendSignInPage(c: Context<AppEnv>, state: SignInState, status: 200 | 403 | 422 | 429 = 200) {
  const action = state.next ? `${CONSOLE_LOGIN_PATH}?next=${encodeURIComponent(state.next)}` : CONSOLE_LOGIN_PATH
  return sendConsolePage(c, {
    title: 'Sign in',
    status,
    headers: status === 429 ? { 'Retry-After': String(ATTEMPT_WINDOW_SECONDS) } : undefined,
    body: (
      <div className="sign-in-box">
        {state.failure && <Flash tone="error">{state.failure}</Flash>}
        {state.notice && <Flash>{state.notice}</Flash>}
        <form className="sign-in" method="post" action={action}>
          <div className="field">
            <label htmlFor="email">E-mail address</label>
            <input
              id="email"
              name="email"
              type="email"
              autoComplete="username"
              required
              defaultValue={state.email ?? ''}
            />
          </div>
          <div className="field">
            <label htmlFor="password">Password</label>
            <input id="password" name="password" type="password" autoComplete="current-password" required />
          </div>
          <div className="field">
            <label htmlFor="code">Code from your authenticator app</label>
            <input
              id="code"
              name="code"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              aria-describedby="code-hint"
            />
            <p className="hint" id="code-hint">
              6 digits; a code works once.
            </p>
          </div>
          <button type="submit" className="button primary">
            Sign in
          </button>
        </form>
      </div>
    ),
  })
}

/** `GET /_console/login`: the sign-in form; a signed-in staff member goes on to `next` (or the console's home). */
export async function consoleLoginPage(c: Context<AppEnv>): Promise<Response> {
  const next = consoleNext(c.req.query('next'))
  if (await consoleSignIn(c)) return sendRedirect(c, next ?? CONSOLE_PATH, 303)
  return sendSignInPage(c, { next, notice: c.req.query('signed_out') === '1' ? SIGNED_OUT : undefined })
}

/**
 * `POST /_console/login`: e-mail, password and TOTP code through `POST api/staff/login`; any wrong part answers 422
 * with one message. Rate-limited like the customers' login (src/auth/attempts.ts, attempt `staff`: every attempt per
 * client, failures per account from a client and from everywhere), then 429. A session the browser held ends first
 * (its token revoked): each sign-in gets a new session id. With Cloudflare Access in front, only the staff member whose
 * address Access let in signs in (403 otherwise, before the upstream is asked, and again on its answer).
 */
export async function submitConsoleLogin(c: Context<AppEnv>): Promise<Response> {
  const sessions = consoleSessionsOf(c)
  const form = await readForm(c)
  const state: SignInState = { email: form.email ?? '', next: consoleNext(c.req.query('next')) }
  const credentials = staffLoginRequest.safeParse({
    email: form.email ?? '',
    password: form.password ?? '',
    code: form.code ?? '',
  })
  if (!sessions) {
    logEvent('error', 'session_secret_missing')
    throw new UpstreamError('unavailable', 'staff/login')
  }
  if (!credentials.success) return sendSignInPage(c, { ...state, failure: SIGN_IN_REFUSED }, 422)
  const access = accessIdentityOf(c)
  const notAccess = () => {
    logEvent('warn', 'access_email_mismatch')
    return sendSignInPage(c, { ...state, failure: SIGN_IN_NOT_ACCESS }, 403)
  }
  if (!sameAccessEmail(access, credentials.data.email)) return notAccess()
  // A session the browser holds (of another member than Access let in: ended here, 403) before a new token is made.
  const previous = await consoleSignIn(c)
  const limited = () => sendSignInPage(c, { ...state, failure: SIGN_IN_LIMITED }, 429)
  const keys = await attemptKeys(c, 'staff', credentials.data.email)
  if (await attemptRefused(c, keys)) return limited()
  const { answer, refused } = await unlessRefused(staffCalls(c.var.upstream).login(credentials.data), [400, 422, 429])
  if (refused) {
    if (refused.status === 429 || (await countAgainstAccount(c, keys))) return limited()
    logEvent('info', 'staff_sign_in_refused')
    return sendSignInPage(c, { ...state, failure: SIGN_IN_REFUSED }, 422)
  }
  const expiresAt = Date.parse(answer?.expires_at ?? '')
  if (!answer || Number.isNaN(expiresAt)) throw new UpstreamError('invalid', 'staff/login')
  if (!sameAccessEmail(access, answer.staff.email)) {
    await revokeStaffToken(c, answer.access_token)
    return notAccess()
  }
  if (previous) await endConsoleSession(c, previous.id, previous.session.token)
  const started = await sessions.create({ staff: answer.staff, token: answer.access_token, expiresAt })
  if (!started) throw new UpstreamError('invalid', 'staff/login')
  setConsoleCookie(c, started.id, started.end)
  logEvent('info', 'staff_signed_in', { role: answer.staff.role })
  return sendRedirect(c, state.next ?? CONSOLE_PATH, 303)
}

/** `POST /_console/logout`: revokes the token upstream, deletes the session and the cookie, then the sign-in page. */
export async function consoleLogout(c: Context<AppEnv>): Promise<Response> {
  const signIn = await consoleSignIn(c)
  if (signIn) await endConsoleSession(c, signIn.id, signIn.session.token)
  clearConsoleCookie(c)
  return sendRedirect(c, `${CONSOLE_LOGIN_PATH}?signed_out=1`, 303)
}

/** Ends a console session for good: its token revoked upstream (a failure is logged), the session deleted. */
export async function endConsoleSession(c: Context<AppEnv>, id: string, token: string): Promise<void> {
  await revokeStaffToken(c, token)
  await consoleSessionsOf(c)?.end(id)
}
