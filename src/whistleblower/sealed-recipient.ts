import { SEALED_RECIPIENT_PREFIX } from '../../contract/staff-schemas'
import { keyIdOf, keyOf, LEGACY_KEY_ID, type WhistleblowerKeyring, withKeyId } from './keyring'
import { derivedKey, openText, sealText } from './sealed'

/**
 * A reporter's address as the outbox keeps it (docs/decisions/027): sealed with AES-GCM under a key derived from
 * the newest whistleblower key for this use alone (the sealed value opens nothing else, and no report's key opens it);
 * the API stores and passes on an opaque `sealed:v2:{key id}:…` and never sees the address. The mail sender derives
 * the key from the ring at sending time: a sender running apart from the Worker would be given the derived key only.
 * An address sealed before key ids (`sealed:v1:…`) was sealed under the legacy key (docs/decisions/048).
 */

const recipientKeyOf = (secret: string) =>
  derivedKey(secret, 'whistleblower-mail-recipients', { name: 'AES-GCM', length: 256 }, ['encrypt', 'decrypt'])

const LEGACY_VERSION = 'v1:'

/** An address sealed for the mail sender under the ring's newest key: `sealed:v2:{id}:` and base64 (a fresh IV each time). */
export async function sealRecipient(keyring: WhistleblowerKeyring, address: string): Promise<string> {
  const { id, secret } = keyring.newest
  return `${SEALED_RECIPIENT_PREFIX}${withKeyId(id, await sealText(await recipientKeyOf(secret), address))}`
}

/** Whether a mail's recipient is sealed (else it is an address in the clear). */
export const isSealedRecipient = (recipient: string): boolean => recipient.startsWith(SEALED_RECIPIENT_PREFIX)

/** A sealed recipient's key id and its base64. */
function sealedParts(recipient: string): { id: string; value: string } {
  const rest = recipient.slice(SEALED_RECIPIENT_PREFIX.length)
  return rest.startsWith(LEGACY_VERSION)
    ? { id: LEGACY_KEY_ID, value: rest.slice(LEGACY_VERSION.length) }
    : keyIdOf(rest)
}

/**
 * A sealed recipient opened with the key it names; throws when it is not one, names a key the ring does not hold
 * (UnknownKeyId), or was altered.
 */
export async function openRecipient(keyring: WhistleblowerKeyring, recipient: string): Promise<string> {
  if (!isSealedRecipient(recipient)) throw new TypeError('not a sealed recipient')
  const { id, value } = sealedParts(recipient)
  return openText(await recipientKeyOf(keyOf(keyring, id).secret), value)
}

/** A sealed recipient sealed again under the ring's newest key, or null when it already is. Throws as `openRecipient`. */
export async function resealRecipient(keyring: WhistleblowerKeyring, recipient: string): Promise<string | null> {
  if (isSealedRecipient(recipient) && sealedParts(recipient).id === keyring.newest.id) return null
  return sealRecipient(keyring, await openRecipient(keyring, recipient))
}
