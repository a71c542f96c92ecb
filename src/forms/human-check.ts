import { configOf } from '../config'
import type { Bindings } from '../env'
import { errorName, logEvent } from '../ops/log'

/** Cloudflare Turnstile's server-side check. */
export const TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify'
/** The origin of Turnstile's widget (its script and its frame): the CSP of a page with the widget names it. */
export const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com'
/** The field Turnstile's widget adds to its form. */
export const TURNSTILE_FIELD = 'cf-turnstile-response'

/** The outcome of a check: a person, not one, or no answer from the checker. */
export type HumanVerdict = 'human' | 'refused' | 'unavailable'

/**
 * A check that a person sent a form, beside the honeypot and the fill time: Cloudflare Turnstile when the deployment
 * sets `TURNSTILE_SECRET_KEY` (and its public `TURNSTILE_SITE_KEY` for the widget), else none. Behind this interface so
 * that tests answer for Turnstile without the network.
 */
export type HumanCheck = {
  /** The widget's public key, or null when no widget is shown. */
  readonly siteKey: string | null
  verify(response: string | undefined, client: string | null): Promise<HumanVerdict>
}

/** No check beyond the honeypot and the fill time. */
export const noHumanCheck: HumanCheck = { siteKey: null, verify: async () => 'human' }

/**
 * Turnstile: the widget's token is checked with Cloudflare (`siteverify`); a missing or refused token is `refused`, a
 * checker that does not answer well is `unavailable` (logged, never the token).
 */
export function turnstile(secret: string, siteKey: string, fetcher: typeof fetch = fetch): HumanCheck {
  return {
    siteKey,
    async verify(response, client) {
      if (!response || response.length > 2048) return 'refused'
      const body = new FormData()
      body.set('secret', secret)
      body.set('response', response)
      if (client) body.set('remoteip', client)
      try {
        const answer = await fetcher(TURNSTILE_VERIFY_URL, { method: 'POST', body, signal: AbortSignal.timeout(3000) })
        if (!answer.ok) throw new Error(`turnstile answered ${answer.status}`)
        const outcome = (await answer.json()) as { success?: unknown }
        return outcome.success === true ? 'human' : 'refused'
      } catch (error) {
        logEvent('error', 'human_check_unavailable', { error: errorName(error) })
        return 'unavailable'
      }
    },
  }
}

/** The deployment's check: Turnstile when both its keys are set, else none. */
export function humanCheckOf(env: Bindings): HumanCheck {
  const siteKey = configOf(env).turnstileSiteKey
  return siteKey && env.TURNSTILE_SECRET_KEY ? turnstile(env.TURNSTILE_SECRET_KEY, siteKey) : noHumanCheck
}
