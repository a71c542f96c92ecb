import { randomToken } from '../crypto/digest'
import { signText, verifyText } from '../crypto/signing'

/**
 * The token every lead form carries in a hidden field: a random id, the time the form was given out and the form it
 * belongs to, signed with `SESSION_SECRET`. Its id is the submission's key upstream (the same form sent twice stores
 * one submission); its time tells a form filled in faster than a person can (a bot) from one left open too long.
 * Nothing is stored: the signature is the proof.
 */
export const FORM_TOKEN_FIELD = 'form_token'

/**
 * Faster than this from the page to the POST, no person filled in the form: the default of the deployment's
 * `FORM_MIN_FILL_SECONDS` (the browser tests' own site sets 0, their robots being quick; workerd tests prove the rule).
 */
export const MIN_FILL_SECONDS = 3
/** A form older than this is given back to be sent again (its values kept), with a new token. */
export const MAX_FORM_AGE_SECONDS = 24 * 3600

const LABEL = 'form-token'
const FORMAT = /^([A-Za-z0-9_-]{43})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/

/** How a token is read: the deployment's minimum fill time, the clock, and the session secret before a rotation. */
type FormTokenRules = { minFillSeconds?: number; now?: number; previous?: string }

/** What a posted token says: its id, and whether the form was filled in as a person does. */
export type FormToken = { id: string; state: 'ok' | 'too_fast' | 'expired' }

/** A new token for a form (`it-it:contact`), given out now. */
export async function issueFormToken(secret: string, form: string, now = Date.now()): Promise<string> {
  const id = randomToken()
  const issued = String(Math.floor(now / 1000))
  return `${id}.${issued}.${await signText(secret, LABEL, `${form}.${id}.${issued}`)}`
}

/**
 * The token posted with a form, when this site signed it for this form; null for none, a forged or another form's.
 * `minFillSeconds` is the deployment's (`configOf(env).formMinFillSeconds`); a token signed with `previous`
 * (`SESSION_SECRET_PREVIOUS`, during a rotation: docs/decisions/048) is as good, so no form open meanwhile is lost.
 */
export async function readFormToken(
  secret: string,
  form: string,
  value: string | undefined,
  { minFillSeconds = MIN_FILL_SECONDS, now = Date.now(), previous }: FormTokenRules = {},
): Promise<FormToken | null> {
  const [, id, issued, signature] = FORMAT.exec(value ?? '') ?? []
  if (!id || !issued || !signature) return null
  if (!(await verifyText(secret, LABEL, `${form}.${id}.${issued}`, signature, previous))) return null
  const age = now / 1000 - Number(issued)
  return { id, state: age < minFillSeconds ? 'too_fast' : age > MAX_FORM_AGE_SECONDS ? 'expired' : 'ok' }
}
