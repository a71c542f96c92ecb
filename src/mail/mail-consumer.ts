import type { Bindings } from '../env'
import { logEvent } from '../ops/log'
import { embeddedReferenceApi } from '../upstream/reference-api'
import { MailNotTaken } from './mail-sender'
import type { MailMessage } from './mail-queue'
import { failureOf, sendOutboxMail } from './outbox-sender'
import { mailSenderOf } from './senders'

/**
 * The mail queue's consumer (worker.ts `queue`, docs/mail.md): each message names an outbox row, sent through the
 * deployment's `MailSender`. A mail not taken is retried with a growing delay; one refused for good is marked failed at
 * once; after wrangler.toml's `max_retries` the queue moves it to the dead-letter queue, whose messages this consumer
 * also receives and marks failed with their last reason. Log lines carry the row's id and the outcome only.
 */

/** The first retry's delay, doubled at each attempt up to MAX_RETRY_DELAY_SECONDS. */
export const FIRST_RETRY_DELAY_SECONDS = 30
export const MAX_RETRY_DELAY_SECONDS = 3600

/** The delay before the next attempt after `attempts` (1 after the first delivery): 30 s, 60 s, 120 s… at most an hour. */
export const retryDelaySeconds = (attempts: number): number =>
  Math.min(FIRST_RETRY_DELAY_SECONDS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_SECONDS)

/**
 * Handles one batch of the mail queue, or of its dead-letter queue (`MAIL_DEAD_LETTER_QUEUE`), one message at a time.
 *
 * @example export default { queue: (batch, env) => receiveMailBatch(batch, env) }
 */
export async function receiveMailBatch(batch: MessageBatch<unknown>, env: Bindings): Promise<void> {
  const referenceApi = embeddedReferenceApi()
  const deadLetters = batch.queue === env.MAIL_DEAD_LETTER_QUEUE
  const sender = mailSenderOf(env)
  for (const message of batch.messages) {
    const id = rowOf(message.body)
    if (id === null || !referenceApi) {
      logEvent('warn', 'mail_message_dropped', { queue: batch.queue })
      message.ack()
      continue
    }
    if (deadLetters) {
      await referenceApi.failMail(env.DB, id)
      logEvent('error', 'mail_dead_lettered', { id })
      message.ack()
      continue
    }
    try {
      const outcome = await sendOutboxMail(env, id, sender)
      logEvent('info', 'mail_sent', { id, outcome, sender: sender.name })
      message.ack()
    } catch (error) {
      if (error instanceof MailNotTaken && error.permanent) {
        await referenceApi.failMail(env.DB, id, error.reason)
        logEvent('error', 'mail_refused', { id, reason: error.reason })
        message.ack()
        continue
      }
      const delaySeconds = retryDelaySeconds(message.attempts)
      logEvent('warn', 'mail_not_sent', { id, attempts: message.attempts, reason: failureOf(error), delaySeconds })
      message.retry({ delaySeconds })
    }
  }
}

/** The outbox row a message names, or null when its body is not a `MailMessage`. */
function rowOf(body: unknown): number | null {
  const id = (body as Partial<MailMessage> | null)?.id
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null
}
