import type { Bindings } from '../env'
import { MailNotTaken, type MailSender, recordSender } from './mail-sender'
import { resendSender } from './resend-sender'

/**
 * The deployment's mail service from `MAIL_PROVIDER` (empty: `record`). A service named but not fully configured, or
 * one unknown, refuses every mail with a reason the outbox shows, so the mistake is seen rather than mails lost.
 *
 * @example const sender = mailSenderOf(env)
 */
export function mailSenderOf(
  env: Pick<Bindings, 'MAIL_PROVIDER' | 'MAIL_API_URL' | 'MAIL_API_KEY' | 'MAIL_FROM' | 'PUBLIC_ORIGIN'>,
): MailSender {
  const provider = env.MAIL_PROVIDER?.trim() || 'record'
  if (provider === 'record') return recordSender
  if (provider !== 'resend') return refusingSender(provider, 'mail_provider_unknown')
  if (!env.MAIL_API_KEY || !env.MAIL_FROM) return refusingSender(provider, 'mail_provider_unconfigured')
  return resendSender({
    apiUrl: env.MAIL_API_URL?.trim() || 'https://api.resend.com',
    apiKey: env.MAIL_API_KEY,
    from: env.MAIL_FROM,
    idempotencyScope: new URL(env.PUBLIC_ORIGIN).host,
  })
}

const refusingSender = (name: string, reason: string): MailSender => ({
  name,
  send: async () => {
    throw new MailNotTaken(reason)
  },
})
