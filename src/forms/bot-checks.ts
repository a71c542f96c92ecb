import type { FormToken } from './form-token'
import type { FormValues } from './lead-form'

/**
 * The honeypot: a field people never see (hidden from sight and from assistive technology, skipped by the keyboard)
 * that simple bots fill like any other.
 */
export const HONEYPOT_FIELD = 'homepage'

/**
 * A posted form's token when nothing marks it as a simple bot's, else null (caught): the honeypot is filled, the form
 * carries no token this site signed for it, or it came back faster than a person fills it in. A caught form gets the
 * usual confirmation and nothing is stored, so the bot learns nothing.
 */
export function personsToken(values: FormValues, token: FormToken | null): FormToken | null {
  const honeypot = values[HONEYPOT_FIELD]
  if (honeypot && honeypot.length > 0) return null
  return token && token.state !== 'too_fast' ? token : null
}
