import { MailNotTaken, type MailSender, type OutgoingMail } from './mail-sender'

/** How long the service may take to answer one mail before the attempt counts as failed (it is retried). */
export const RESEND_TIMEOUT_MS = 10_000

export type ResendSenderOptions = {
  /** Resend's API (`https://api.resend.com`), or a stand-in of it. */
  apiUrl: string
  apiKey: string
  /** The sender, `Aurora Cycles <mail@aurora-cycles.example>`: a domain verified at Resend. */
  from: string
  /** Makes the idempotency key unique across the deployments that share one Resend account: the public host. */
  idempotencyScope: string
  fetch?: typeof fetch
}

/**
 * Resend's documented HTTP API (`POST {apiUrl}/emails`, `Authorization: Bearer`), reached with fetch
 * (docs/decisions/047): one mail a call, its plain text and HTML parts and its headers (docs/decisions/050), its `Idempotency-Key` the outbox row (`{host}/outbox/{id}`), so a retry or a
 * message delivered twice sends one mail. A 400 or 422 is the mail refused for good; anything else is retried.
 *
 * @example const sender = resendSender({ apiUrl, apiKey, from, idempotencyScope: 'www.aurora-cycles.example' })
 */
export function resendSender(options: ResendSenderOptions): MailSender {
  const send = options.fetch ?? fetch
  return {
    name: 'resend',
    async send(mail: OutgoingMail): Promise<string> {
      let response: Response
      try {
        response = await send(`${options.apiUrl.replace(/\/+$/, '')}/emails`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${options.apiKey}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': `${options.idempotencyScope}/outbox/${mail.id}`,
          },
          body: JSON.stringify({
            from: options.from,
            to: [mail.to],
            subject: mail.subject,
            text: mail.body,
            ...(mail.html ? { html: mail.html } : {}),
            ...(Object.keys(mail.headers).length ? { headers: mail.headers } : {}),
          }),
          signal: AbortSignal.timeout(RESEND_TIMEOUT_MS),
        })
      } catch (error) {
        throw new MailNotTaken(error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network_error')
      }
      const answer = (await response.json().catch(() => null)) as { id?: unknown; name?: unknown } | null
      if (response.ok && typeof answer?.id === 'string') return answer.id
      throw new MailNotTaken(
        reasonOf(response.status, answer?.name),
        response.status === 400 || response.status === 422,
      )
    },
  }
}

/** `http_{status}`, with Resend's error name when it is one (`http_422_validation_error`): never its message. */
function reasonOf(status: number, name: unknown): string {
  const code = typeof name === 'string' && /^[a-z_]{1,60}$/.test(name) ? `_${name}` : ''
  return `http_${status}${code}`
}
