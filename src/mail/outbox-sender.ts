import { configOf } from '../config'
import type { Bindings } from '../env'
import { embeddedReferenceApi, type QueuedMail, type SendingReport } from '../upstream/reference-api'
import { keyringOf } from '../whistleblower/keyring'
import { isSealedRecipient, openRecipient } from '../whistleblower/sealed-recipient'

/**
 * Sending the embedded reference API's outbox (docs/decisions/027): the deployment's mail service is a
 * `MailTransport`; the reference API reads its queued mails and marks them sent (or deletes a sealed recipient's row),
 * and the site opens a sealed recipient only as the mail is handed over. A brand's own backend sends its own outbox.
 */

/** A mail as it leaves the site: the only moment a sealed recipient is in the clear, and it is never stored so. */
export type OutgoingMail = { id: number; to: string; subject: string; body: string; kind: string }

/** Where mails leave the site: a mail service's API, or a recorder in tests. Throws when the mail was not taken. */
export type MailTransport = { send(mail: OutgoingMail): Promise<void> }

/** At most this many mails in one run: each run stays short, however much has piled up. */
export const MAILS_PER_RUN = 50

/**
 * Sends the oldest queued mails of the embedded reference API, one at a time (runs do not overlap: the caller runs one
 * at once). A mail that could not be opened or was not taken stays queued for the next run and is logged with its
 * kind, its id and the error's name, never its recipient or its words.
 *
 * @example await sendQueuedMails(env, mailService)
 */
export async function sendQueuedMails(
  env: Bindings,
  transport: MailTransport,
  limit = MAILS_PER_RUN,
): Promise<SendingReport> {
  const referenceApi = embeddedReferenceApi()
  if (configOf(env).upstream.kind !== 'embedded' || !referenceApi) return { sent: 0, failed: 0 }
  return referenceApi.sendOutbox(env.DB, async (queued) => transport.send(await outgoingMail(env, queued)), limit)
}

/** A queued mail as it is to leave: a sealed recipient opened with the whistleblower keyring (throws without one). */
export async function outgoingMail(
  env: Pick<Bindings, 'WHISTLEBLOWER_KEYS' | 'WHISTLEBLOWER_KEY'>,
  queued: QueuedMail,
): Promise<OutgoingMail> {
  const { recipient, ...mail } = queued
  if (!isSealedRecipient(recipient)) return { ...mail, to: recipient }
  const keyring = keyringOf(env)
  if (!keyring) throw new Error('WHISTLEBLOWER_KEYS is not set')
  return { ...mail, to: await openRecipient(keyring, recipient) }
}
