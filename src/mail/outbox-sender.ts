import type { Bindings } from '../env'
import type { MailOutcome, QueuedMail } from '../../contract/outbox-mail'
import { embeddedReferenceApi } from '../upstream/reference-api'
import { keyringOf } from '../whistleblower/keyring'
import { isSealedRecipient, openRecipient } from '../whistleblower/sealed-recipient'
import { MailNotTaken, type MailSender, type OutgoingMail } from './mail-sender'

/**
 * Sending one row of the embedded reference API's outbox (docs/decisions/027 and 047): the reference API reads it and
 * marks it sent (or deletes a sealed recipient's row); the site opens a sealed recipient only as the mail is handed
 * to the `MailSender`. A brand's own backend sends its own outbox.
 */

/**
 * Sends the outbox row `id` through `sender`, once (a row already sent or failed is left alone). Throws a
 * `MailNotTaken` when it was not taken; its reason stays on the row.
 *
 * @example await sendOutboxMail(env, 42, mailSenderOf(env))
 */
export async function sendOutboxMail(env: Bindings, id: number, sender: MailSender): Promise<MailOutcome> {
  const referenceApi = embeddedReferenceApi()
  if (!referenceApi) return 'nothing_to_send'
  return referenceApi.sendMail(env.DB, id, async (queued) => sender.send(await outgoingMail(env, queued)), failureOf)
}

/** A queued mail as it is to leave: a sealed recipient opened with the whistleblower keyring (throws without one). */
export async function outgoingMail(
  env: Pick<Bindings, 'WHISTLEBLOWER_KEYS' | 'WHISTLEBLOWER_KEY'>,
  queued: QueuedMail,
): Promise<OutgoingMail> {
  const { recipient, headers, ...stored } = queued
  const mail = { ...stored, headers: headersOf(headers) }
  if (!isSealedRecipient(recipient)) return { ...mail, to: recipient }
  const keyring = keyringOf(env)
  if (!keyring) throw new MailNotTaken('whistleblower_key_missing')
  return { ...mail, to: await openRecipient(keyring, recipient).catch(unopened) }
}

/** A row's headers: its JSON object's string values (none when it holds no object). */
function headersOf(stored: string | null): Record<string, string> {
  let parsed: unknown = null
  try {
    parsed = stored ? JSON.parse(stored) : null
  } catch {
    return {}
  }
  if (!parsed || typeof parsed !== 'object') return {}
  return Object.fromEntries(
    Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  )
}

const unopened = (): never => {
  throw new MailNotTaken('sealed_recipient_unopened', true)
}

/** The reason an attempt failed, as the outbox keeps it: a sender's code, else the error's name only. */
export const failureOf = (error: unknown): string =>
  error instanceof MailNotTaken ? error.reason : error instanceof Error ? error.name : 'unknown'
