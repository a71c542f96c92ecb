import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { queueMail } from '../../reference-api/outbox'
import type { Bindings } from '../../src/env'
import { type MailTransport, type OutgoingMail, sendQueuedMails } from '../../src/mail/outbox-sender'
import { sealRecipient } from '../../src/whistleblower/sealed-recipient'
import { WHISTLEBLOWER_KEYRING } from '../fixtures/cases'
// The Worker as composed (worker.ts): the reference API, whose outbox this sends, handed to the site.
import '../../worker'

afterEach(() => vi.restoreAllMocks())

/** A transport that keeps what it is handed, as a mail service would take it. */
function recorder(): MailTransport & { mails: OutgoingMail[] } {
  const mails: OutgoingMail[] = []
  return { mails, send: async (mail) => void mails.push(mail) }
}

const bindings = (overrides: Partial<Bindings> = {}) => ({ ...(env as unknown as Bindings), ...overrides })

/** Queues a mail through the embedded API's own statement and answers its id. */
async function queued(recipient: string, kind: string, body = 'Hello') {
  await queueMail(env.DB, { recipient, subject: `Subject of ${kind}`, body, kind }).run()
  return (await env.DB.prepare('SELECT MAX(id) AS id FROM outbox').first<number>('id')) as number
}

const rowOf = (id: number) =>
  env.DB.prepare('SELECT recipient, sent_at FROM outbox WHERE id = ?')
    .bind(id)
    .first<{ recipient: string; sent_at: string | null }>()

/** Sends until nothing is left that can be sent, keeping every log line. */
async function drain(transport: MailTransport, overrides: Partial<Bindings> = {}) {
  const lines: string[] = []
  for (const level of ['log', 'warn', 'error', 'info'] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')))
  let failed = 0
  for (;;) {
    const run = await sendQueuedMails(bindings(overrides), transport)
    failed += run.failed
    if (run.sent === 0) return { lines, failed }
  }
}

describe('sending the outbox', () => {
  it('hands each queued mail over once: one in the clear is kept marked sent, a sealed one is opened only now and its row deleted', async () => {
    const plain = await queued('rider@example.com', 'newsletter_confirmation')
    const sealed = await queued(
      await sealRecipient(WHISTLEBLOWER_KEYRING, 'hidden.reporter@example.com'),
      'whistleblower_news',
      'There is news: https://site.test/it-it/whistleblower-form/status',
    )
    expect((await rowOf(sealed))?.recipient).toMatch(/^sealed:v2:legacy:/)
    const transport = recorder()
    await drain(transport)
    expect(transport.mails.filter((mail) => [plain, sealed].includes(mail.id))).toEqual([
      {
        id: plain,
        to: 'rider@example.com',
        subject: 'Subject of newsletter_confirmation',
        body: 'Hello',
        kind: 'newsletter_confirmation',
      },
      {
        id: sealed,
        to: 'hidden.reporter@example.com',
        subject: 'Subject of whistleblower_news',
        body: 'There is news: https://site.test/it-it/whistleblower-form/status',
        kind: 'whistleblower_news',
      },
    ])
    expect((await rowOf(plain))?.sent_at).toEqual(expect.any(String))
    expect(await rowOf(sealed)).toBeNull()
    // Sent once: a second run hands over nothing.
    const again = recorder()
    await drain(again)
    expect(again.mails).toEqual([])
  })

  it('keeps a mail queued when it cannot be opened or the transport refuses it, logging its kind and id, never its recipient', async () => {
    const sealed = await queued(
      await sealRecipient(WHISTLEBLOWER_KEYRING, 'kept.reporter@example.com'),
      'whistleblower_news',
    )
    for (const overrides of [{ WHISTLEBLOWER_KEY: undefined }, { WHISTLEBLOWER_KEY: 'another-secret' }]) {
      const transport = recorder()
      const { lines, failed } = await drain(transport, overrides)
      expect(transport.mails.map((mail) => mail.id)).not.toContain(sealed)
      expect(failed).toBeGreaterThan(0)
      expect(lines.map((line) => JSON.parse(line))).toContainEqual(
        expect.objectContaining({ event: 'mail_not_sent', id: sealed, kind: 'whistleblower_news' }),
      )
      expect(lines.join('\n')).not.toContain('kept.reporter')
      expect((await rowOf(sealed))?.sent_at).toBeNull()
    }
    const refusing: MailTransport = {
      send: async (mail) => {
        throw new Error(`mailbox of ${mail.to} unavailable`)
      },
    }
    const { lines } = await drain(refusing)
    expect(lines.join('\n')).toContain('"event":"mail_not_sent"')
    expect(lines.join('\n')).not.toContain('kept.reporter')
    expect((await rowOf(sealed))?.sent_at).toBeNull()
    const transport = recorder()
    await drain(transport)
    expect(transport.mails.filter((mail) => mail.id === sealed).map((mail) => mail.to)).toEqual([
      'kept.reporter@example.com',
    ])
    expect(await rowOf(sealed)).toBeNull()
  })
})
