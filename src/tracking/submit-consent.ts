import type { Context } from 'hono'
import { redirectTarget } from '../auth/redirect-target'
import { withNotice } from '../components/toast'
import type { AppEnv } from '../env'
import { ErrorMessages, PageError } from '../errors/page-error'
import { sendRedirect } from '../render/respond'
import { ACCEPTED, CONSENT_CATEGORIES, type Consent, REFUSED, storeConsent } from './consent'

/**
 * `POST /_consent` (the banner's form): `choice=accept`, `reject`, or `save` with a checkbox per allowed category;
 * stores the choice in the consent cookie and goes back to the page (`return`, a same-site path), which then loads
 * what was allowed. Like every form, same-origin only (security/unsafe-requests.ts). Anything else is a 400.
 */
export async function submitConsent(c: Context<AppEnv>): Promise<Response> {
  const form = await c.req.parseBody().catch(() => null)
  if (!form) throw new PageError(400, ErrorMessages.badRequest)
  const choice = form.choice
  const consent: Consent | null =
    choice === 'accept'
      ? ACCEPTED
      : choice === 'reject'
        ? REFUSED
        : choice === 'save'
          ? (Object.fromEntries(CONSENT_CATEGORIES.map((category) => [category, form[category] === 'on'])) as Consent)
          : null
  if (!consent) throw new PageError(400, ErrorMessages.badRequest)
  storeConsent(c, consent)
  const back = redirectTarget(typeof form.return === 'string' ? form.return : null) ?? '/'
  return sendRedirect(c, withNotice(back, 'consent_saved'), 303)
}
