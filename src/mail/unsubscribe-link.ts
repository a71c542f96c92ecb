import { fromBase64Url, toBase64Url } from '../crypto/digest'
import { signText, verifyText } from '../crypto/signing'

/**
 * The newsletter's one-click unsubscribe link (RFC 8058, docs/mail.md): `{origin}/{market}/newsletter/unsubscribe/
 * {token}`, the token the address (base64url) and its signature for the market under `SESSION_SECRET`. It proves
 * itself: no cookie, no session, no cross-site token, nothing stored.
 */

const LABEL = 'newsletter-unsubscribe'
const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { fatal: true })

/** The shape of a token: the address in base64url, a dot, the signature (43 characters). */
const UNSUBSCRIBE_TOKEN = /^[A-Za-z0-9_-]{4,400}\.[A-Za-z0-9_-]{43}$/

/**
 * The link a newsletter mail to `email` carries in its `List-Unsubscribe` header and its footer.
 *
 * @example await unsubscribeLink(env.SESSION_SECRET, 'https://www.aurora-cycles.example', 'it-it', 'a@example.com')
 */
export async function unsubscribeLink(secret: string, origin: string, segment: string, email: string): Promise<string> {
  const address = email.trim().toLowerCase()
  const signature = await signText(secret, LABEL, `${segment}\n${address}`)
  return `${origin}/${segment}/newsletter/unsubscribe/${toBase64Url(encoder.encode(address))}.${signature}`
}

/**
 * The address an unsubscribe token of the market names, or null when it is malformed or not signed by this site (the
 * current secret, or the previous one during a rotation's overlap).
 *
 * @example const email = await unsubscribedAddress(env.SESSION_SECRET, 'it-it', token)
 */
export async function unsubscribedAddress(
  secret: string,
  segment: string,
  token: string,
  previous?: string,
): Promise<string | null> {
  if (!UNSUBSCRIBE_TOKEN.test(token)) return null
  const [encoded = '', signature = ''] = token.split('.')
  let address: string
  try {
    address = decoder.decode(fromBase64Url(encoded))
  } catch {
    return null
  }
  return (await verifyText(secret, LABEL, `${segment}\n${address}`, signature, previous)) ? address : null
}
