import type { FormToken } from './form-token'
import type { FormValues } from './lead-form'

/**
 * The honeypot: a field people never see (hidden from sight and from assistive technology, skipped by the keyboard)
 * that simple bots fill like any other.
 */
export const HONEYPOT_FIELD = 'homepage'

/**
 * Whether a posted form comes from a simple bot: the honeypot is filled, the form carries no token this site signed
 * for it, or it came back faster than a person fills it in. Such a form gets the usual confirmation and nothing is
 * stored, so the bot learns nothing.
 */
export function caughtBot(values: FormValues, token: FormToken | null): boolean {
  const honeypot = values[HONEYPOT_FIELD]
  return Boolean(honeypot && honeypot.length > 0) || token === null || token.state === 'too_fast'
}
