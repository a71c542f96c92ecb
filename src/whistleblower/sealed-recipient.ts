import { SEALED_RECIPIENT_PREFIX } from '../../contract/staff-schemas'
import { derivedKey, openText, sealText } from './sealed'

/**
 * A reporter's address as the outbox keeps it (docs/decisions/027): sealed with AES-GCM under a key derived from
 * `WHISTLEBLOWER_KEY` for this use alone (the sealed value opens nothing else, and no report's key opens it); the
 * API stores and passes on an opaque `sealed:v1:…` and never sees the address. The mail sender derives the key from
 * `WHISTLEBLOWER_KEY` at sending time: a sender running apart from the Worker would be given the derived key only.
 */

const recipientKeyOf = (secret: string) =>
  derivedKey(secret, 'whistleblower-mail-recipients', { name: 'AES-GCM', length: 256 }, ['encrypt', 'decrypt'])

/** An address sealed for the mail sender: `sealed:v1:` and base64 (a fresh IV each time). */
export async function sealRecipient(secret: string, address: string): Promise<string> {
  return `${SEALED_RECIPIENT_PREFIX}${await sealText(await recipientKeyOf(secret), address)}`
}

/** Whether a mail's recipient is sealed (else it is an address in the clear). */
export const isSealedRecipient = (recipient: string): boolean => recipient.startsWith(SEALED_RECIPIENT_PREFIX)

/** A sealed recipient opened; throws when it is not one, was sealed with another secret or was altered. */
export async function openRecipient(secret: string, recipient: string): Promise<string> {
  if (!isSealedRecipient(recipient)) throw new TypeError('not a sealed recipient')
  return openText(await recipientKeyOf(secret), recipient.slice(SEALED_RECIPIENT_PREFIX.length))
}
