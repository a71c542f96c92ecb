import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { suppressAddress } from '../../reference-api/outbox-sender'
import type { Bindings } from '../../src/env'
import { MailNotTaken, type MailSender } from '../../src/mail/mail-sender'
import { sendOutboxMail } from '../../src/mail/outbox-sender'
import { sealRecipient } from '../../src/whistleblower/sealed-recipient'
import { WHISTLEBLOWER_KEYRING } from '../fixtures/cases'
import { queuedMail, recordingSender } from '../fixtures/mail'
// The Worker as composed (worker.ts): the reference API, whose outbox this sends, handed to the site.
import '../../worker'

afterEach(() => vi.restoreAllMocks())

const bindings = (overrides: Partial<Bindings> = {}) => ({ ...(env as unknown as Bindings), ...overrides })

const rowOf = (id: number) =>
  env.DB.prepare('SELECT recipient, sent_at, provider_id, failure, attempts, failed_at FROM outbox WHERE id = ?')
    .bind(id)
    .first<{
      recipient: string
      sent_at: string | null
      provider_id: string | null
      failure: string | null
      attempts: number
      failed_at: string | null
    }>()

/** Sends one row, keeping every log line and what was thrown. */
async function sendOne(id: number, sender: MailSender, overrides: Partial<Bindings> = {}) {
  const lines: string[] = []
  for (const level of ['log', 'warn', 'error', 'info'] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')))
  const outcome = await sendOutboxMail(bindings(overrides), id, sender).catch((error: unknown) => error)
  vi.restoreAllMocks()
  return { outcome, lines }
}

describe('sending one outbox row', () => {
  it('hands a mail over once: one in the clear is kept marked sent with the service id, a sealed one is opened only now and its row deleted', async () => {
    const plain = await queuedMail('rider@example.com', 'newsletter_confirmation')
    const sealed = await queuedMail(
      await sealRecipient(WHISTLEBLOWER_KEYRING, 'hidden.reporter@example.com'),
      'whistleblower_news',
      'There is news: https://site.test/it-it/whistleblower-form/status',
    )
    expect((await rowOf(sealed))?.recipient).toMatch(/^sealed:v2:legacy:/)
    const sender = recordingSender()
    expect((await sendOne(plain, sender)).outcome).toBe('sent')
    expect((await sendOne(sealed, sender)).outcome).toBe('sent')
    expect(sender.mails).toEqual([
      {
        id: plain,
        to: 'rider@example.com',
        subject: 'Subject of newsletter_confirmation',
        body: 'Hello',
        kind: 'newsletter_confirmation',
        html: expect.stringContaining('<html lang="en" dir="ltr">'),
        headers: {},
      },
      {
        id: sealed,
        to: 'hidden.reporter@example.com',
        subject: 'Subject of whistleblower_news',
        body: 'There is news: https://site.test/it-it/whistleblower-form/status',
        kind: 'whistleblower_news',
        html: expect.stringContaining('<html lang="en" dir="ltr">'),
        headers: {},
      },
    ])
    expect(await rowOf(plain)).toMatchObject({ sent_at: expect.any(String), provider_id: `test-${plain}` })
    expect(await rowOf(sealed)).toBeNull()
    // Sent once: the same message again hands over nothing.
    const again = recordingSender()
    expect((await sendOne(plain, again)).outcome).toBe('nothing_to_send')
    expect((await sendOne(sealed, again)).outcome).toBe('nothing_to_send')
    expect(again.mails).toEqual([])
  })

  it('leaves a mail unsent with its reason when it cannot be opened or the service refuses it, logging no recipient', async () => {
    const sealed = await queuedMail(
      await sealRecipient(WHISTLEBLOWER_KEYRING, 'kept.reporter@example.com'),
      'whistleblower_news',
    )
    const sender = recordingSender()
    const missing = await sendOne(sealed, sender, { WHISTLEBLOWER_KEY: undefined })
    expect(missing.outcome).toMatchObject({ reason: 'whistleblower_key_missing', permanent: false })
    const wrong = await sendOne(sealed, sender, { WHISTLEBLOWER_KEY: 'another-secret' })
    expect(wrong.outcome).toMatchObject({ reason: 'sealed_recipient_unopened', permanent: true })
    const refusing: MailSender = {
      name: 'refusing',
      send: async (mail) => {
        throw new MailNotTaken(mail.to.includes('@') ? 'http_503' : 'never')
      },
    }
    const refused = await sendOne(sealed, refusing)
    expect(refused.outcome).toMatchObject({ reason: 'http_503' })
    for (const run of [missing, wrong, refused]) expect(run.lines.join('\n')).not.toContain('kept.reporter')
    expect(sender.mails).toEqual([])
    expect(await rowOf(sealed)).toMatchObject({ sent_at: null, failed_at: null, attempts: 3, failure: 'http_503' })
    expect((await sendOne(sealed, sender)).outcome).toBe('sent')
    expect(sender.mails.map((mail) => mail.to)).toEqual(['kept.reporter@example.com'])
    expect(await rowOf(sealed)).toBeNull()
  })

  it('sends no newsletter mail to an address that bounced or complained, and no mail at all to one that bounced', async () => {
    await suppressAddress(env.DB, 'Complained@Example.com', 'complained')
    await suppressAddress(env.DB, 'bounced@example.com', 'bounced')
    const sender = recordingSender()
    const rows = {
      complainedNewsletter: await queuedMail('complained@example.com', 'newsletter_confirmation'),
      complainedReset: await queuedMail('complained@example.com', 'password_reset'),
      bouncedNewsletter: await queuedMail('bounced@example.com', 'newsletter_confirmation'),
      bouncedOrder: await queuedMail('bounced@example.com', 'order_confirmation'),
    }
    const outcomes = Object.fromEntries(
      await Promise.all(Object.entries(rows).map(async ([name, id]) => [name, (await sendOne(id, sender)).outcome])),
    )
    expect(outcomes).toEqual({
      complainedNewsletter: 'suppressed',
      complainedReset: 'sent',
      bouncedNewsletter: 'suppressed',
      bouncedOrder: 'suppressed',
    })
    expect(sender.mails.map((mail) => mail.id)).toEqual([rows.complainedReset])
    expect(await rowOf(rows.complainedNewsletter)).toMatchObject({
      failure: 'suppressed_complained',
      failed_at: expect.any(String),
    })
    expect(await rowOf(rows.bouncedOrder)).toMatchObject({
      failure: 'suppressed_bounced',
      failed_at: expect.any(String),
    })
    // A complaint after a bounce leaves the address bounced; the suppression list names no one.
    await suppressAddress(env.DB, 'bounced@example.com', 'complained')
    const { results } = await env.DB.prepare('SELECT address_hash, reason FROM mail_suppressions ORDER BY reason').all()
    expect(results.map((row) => row.reason)).toEqual(['bounced', 'complained'])
    expect(JSON.stringify(results)).not.toMatch(/example\.com/i)
  })
})
