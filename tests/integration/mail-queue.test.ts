import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import worker from '../../worker'
import type { Bindings } from '../../src/env'
import { issueFormToken } from '../../src/forms/form-token'
import { retryDelaySeconds } from '../../src/mail/mail-consumer'
import { MAIL_EVENTS_PATH } from '../../src/mail/mail-events'
import { MAIL_SWEEP_CRON } from '../../src/mail/mail-queue'
import { signSvix } from '../../src/mail/svix-signature'
import { consoleLogin, visitConsole } from '../fixtures/console'
import { mailArriving, mailsAtStandIn, queuedMail, standInAnswers, standInEvent } from '../fixtures/mail'
import { formPost, nextClient } from '../fixtures/session'
import { textOf, visit } from '../fixtures/worker'

afterEach(() => standInAnswers(0))

const bindings = env as unknown as Bindings
/** The site with the mail queue that wrangler.toml's consumer takes (tests park MAIL_QUEUE: vitest.config.ts). */
const leaving = { MAIL_QUEUE: env.TEST_MAIL_QUEUE }

let people = 0
const newAddress = (name: string) => `${name}-${++people}-${Date.now()}@example.com`

/** Creates an account in it-it as a person would; answers its address. */
async function signUp(email: string, siteBindings: Partial<Cloudflare.Env>) {
  const answer = await visit(
    '/login/register',
    formPost(
      {
        first_name: 'Chiara',
        last_name: 'Bianchi',
        email,
        password: 'Gravel-Roads-2027',
        consent: 'on',
        form_token: await issueFormToken(env.SESSION_SECRET, 'register', Date.now() - 10_000),
      },
      { Cookie: 'CountryLocale=it-it', 'CF-Connecting-IP': nextClient() },
    ),
    siteBindings,
  )
  expect(answer.status).toBe(303)
}

const rowTo = (recipient: string) =>
  env.DB.prepare(
    'SELECT id, kind, queued_at, sent_at, provider_id, failure, attempts, failed_at FROM outbox WHERE recipient = ? ORDER BY id DESC LIMIT 1',
  )
    .bind(recipient)
    .first<{
      id: number
      kind: string
      queued_at: string | null
      sent_at: string | null
      provider_id: string | null
      failure: string | null
      attempts: number
      failed_at: string | null
    }>()

/** One delivery of a message of `queue` naming row `id`, its `attempts`th, to the Worker's consumer; answers the outcome. */
async function deliver(queue: string, id: number, attempts: number) {
  const batch = createMessageBatch(queue, [{ id: `message-${id}`, timestamp: new Date(), attempts, body: { id } }])
  // The pool's result leaves out a retry's delay: the message's own `retry` is watched for it.
  const retry = vi.spyOn(batch.messages[0] as Message, 'retry')
  const ctx = createExecutionContext()
  await worker.queue(batch, bindings)
  const result = await getQueueResult(batch, ctx)
  return { ...result, delaySeconds: retry.mock.calls[0]?.[0]?.delaySeconds }
}

describe('the mail queue', () => {
  it("carries a new account's confirmation mail to the mail service, whose link then confirms the account", async () => {
    const email = newAddress('queued')
    await signUp(email, leaving)
    const row = await rowTo(email)
    expect(row).toMatchObject({ kind: 'email_confirmation', queued_at: expect.any(String) })
    const mail = await mailArriving(email)
    expect(mail).toMatchObject({
      from: env.MAIL_FROM,
      to: [email],
      idempotencyKey: `site.test/outbox/${row?.id}`,
    })
    // Sent once, marked with the service's id.
    await expect.poll(async () => (await rowTo(email))?.provider_id).toBe(mail.id)
    expect((await rowTo(email))?.sent_at).toEqual(expect.any(String))
    expect(await mailsAtStandIn(email)).toHaveLength(1)
    const link = /https:\/\/site\.test(\/it-it\/confirm-email\/[A-Za-z0-9_-]{43})/.exec(mail.text)?.[1] as string
    expect(link).toBeTruthy()
    const confirmed = await visit(link, formPost({}))
    expect(confirmed.status).toBe(303)
    const user = await env.DB.prepare('SELECT email_confirmed_at FROM users WHERE email = ?').bind(email).first()
    expect(user?.email_confirmed_at).toMatch(/^\d{4}-/)
  })

  it('keeps a mail whose announcement failed for the scheduled run, which announces it', async () => {
    const email = newAddress('unannounced')
    const broken = {
      send: async () => {
        throw new Error('queue unavailable')
      },
      sendBatch: async () => {
        throw new Error('queue unavailable')
      },
    } as unknown as Queue
    await signUp(email, { MAIL_QUEUE: broken })
    expect(await rowTo(email)).toMatchObject({ queued_at: null, sent_at: null })
    const ctx = createExecutionContext()
    await worker.scheduled(createScheduledController({ cron: MAIL_SWEEP_CRON }), { ...bindings, ...leaving }, ctx)
    await waitOnExecutionContext(ctx)
    expect((await rowTo(email))?.queued_at).toEqual(expect.any(String))
    expect((await mailArriving(email)).to).toEqual([email])
  })

  it('retries a mail the service answers 500 with a growing delay, and marks it failed once dead-lettered', async () => {
    await standInAnswers(500)
    const email = newAddress('refused')
    const id = await queuedMail(email, 'order_confirmation')
    const delays: Array<number | undefined> = []
    for (let attempts = 1; attempts <= 7; attempts++) {
      const result = await deliver('brand-site-mail', id, attempts)
      expect(result.explicitAcks).toEqual([])
      expect(result.retryMessages).toEqual([{ msgId: `message-${id}` }])
      delays.push(result.delaySeconds)
    }
    expect(delays).toEqual([30, 60, 120, 240, 480, 960, 1920])
    expect(delays.map((_, i) => retryDelaySeconds(i + 1))).toEqual(delays)
    expect(await rowTo(email)).toMatchObject({
      attempts: 7,
      failure: 'http_500_internal_server_error',
      failed_at: null,
      sent_at: null,
    })
    // wrangler.toml: after max_retries the queue hands the message to the dead-letter queue, which this Worker consumes.
    expect(env.TEST_WRANGLER_TOML).toMatch(
      /queue = "brand-site-mail"\s+max_batch_size = \d+\s+max_batch_timeout = \d+\s+max_retries = 6\s+dead_letter_queue = "brand-site-mail-dead"/,
    )
    expect(env.TEST_WRANGLER_TOML).toMatch(/\[\[queues\.consumers\]\]\s+queue = "brand-site-mail-dead"/)
    const dead = await deliver(env.MAIL_DEAD_LETTER_QUEUE, id, 1)
    expect(dead.explicitAcks).toEqual([`message-${id}`])
    expect(await rowTo(email)).toMatchObject({
      failure: 'http_500_internal_server_error',
      failed_at: expect.any(String),
      sent_at: null,
    })
    expect(await mailsAtStandIn(email)).toEqual([])
    // Failed for good: a late delivery of the same message sends nothing.
    await standInAnswers(0)
    expect((await deliver('brand-site-mail', id, 1)).explicitAcks).toEqual([`message-${id}`])
    expect(await mailsAtStandIn(email)).toEqual([])
  })

  it('marks a mail the service refuses for good (422) failed at once, without retrying it', async () => {
    const email = newAddress('refused-for-good')
    const id = await queuedMail(email, 'contact_acknowledgement')
    await standInAnswers(422)
    const result = await deliver('brand-site-mail', id, 1)
    expect(result.retryMessages).toEqual([])
    expect(result.explicitAcks).toEqual([`message-${id}`])
    expect(await rowTo(email)).toMatchObject({ failure: 'http_422_validation_error', failed_at: expect.any(String) })
  })
})

describe("the mail service's webhook", () => {
  const post = (event: { headers: Record<string, string>; body: string }) =>
    visit(MAIL_EVENTS_PATH, { method: 'POST', headers: event.headers, body: event.body })

  it('stops the newsletter to an address that bounced: its subscription ends and its newsletter mail is not sent', async () => {
    const email = newAddress('bouncing')
    await env.DB.prepare("INSERT INTO newsletter_subscribers (site, email, locale) VALUES ('it', ?, 'it')")
      .bind(email)
      .run()
    const answer = await post(await standInEvent('email.bounced', email))
    expect(answer.status).toBe(200)
    const subscriber = await env.DB.prepare('SELECT 1 FROM newsletter_subscribers WHERE email = ?').bind(email).first()
    expect(subscriber).toBeNull()
    const id = await queuedMail(email, 'newsletter_confirmation')
    expect((await deliver('brand-site-mail', id, 1)).explicitAcks).toEqual([`message-${id}`])
    expect(await rowTo(email)).toMatchObject({ failure: 'suppressed_bounced', failed_at: expect.any(String) })
    expect(await mailsAtStandIn(email)).toEqual([])
    // The same delivery again is harmless.
    expect((await post(await standInEvent('email.bounced', email))).status).toBe(200)
  })

  it('refuses a forged, altered, stale or unsigned delivery with 401 or 400, changing nothing', async () => {
    const email = newAddress('forged')
    await env.DB.prepare("INSERT INTO newsletter_subscribers (site, email, locale) VALUES ('it', ?, 'it')")
      .bind(email)
      .run()
    const forged = await standInEvent('email.complained', email, `whsec_${btoa('another secret, not the site one')}`)
    const genuine = await standInEvent('email.complained', email)
    const stale = Math.floor(Date.now() / 1000) - 3600
    const staleHeaders = {
      ...genuine.headers,
      'svix-timestamp': String(stale),
      'svix-signature': await signSvix(
        env.MAIL_WEBHOOK_SECRET,
        genuine.headers['svix-id'] as string,
        stale,
        genuine.body,
      ),
    }
    expect((await post(forged)).status).toBe(401)
    expect((await post({ ...genuine, body: genuine.body.replace('forged', 'other') })).status).toBe(401)
    expect((await post({ headers: staleHeaders, body: genuine.body })).status).toBe(401)
    expect((await post({ headers: { 'content-type': 'application/json' }, body: genuine.body })).status).toBe(400)
    const subscriber = await env.DB.prepare('SELECT 1 FROM newsletter_subscribers WHERE email = ?').bind(email).first()
    expect(subscriber).toEqual({ 1: 1 })
    expect((await post(genuine)).status).toBe(200)
  })

  it('answers 404 while mails are only recorded, and 503 without its secret', async () => {
    const event = await standInEvent('email.bounced', newAddress('unheard'))
    const init = { method: 'POST', headers: event.headers, body: event.body }
    expect((await visit(MAIL_EVENTS_PATH, init, { MAIL_PROVIDER: 'record' })).status).toBe(404)
    expect((await visit(MAIL_EVENTS_PATH, init, { MAIL_WEBHOOK_SECRET: undefined } as never)).status).toBe(503)
  })
})

describe("the console's outbox", () => {
  it('shows each mail queued, sent (with the service id) or failed (with its reason)', async () => {
    const sent = await queuedMail(newAddress('shown-sent'), 'contact_acknowledgement')
    const failed = await queuedMail(newAddress('shown-failed'), 'contact_acknowledgement')
    const waiting = await queuedMail(newAddress('shown-queued'), 'contact_acknowledgement')
    expect((await deliver('brand-site-mail', sent, 1)).explicitAcks).toEqual([`message-${sent}`])
    await standInAnswers(500)
    await deliver('brand-site-mail', failed, 1)
    await deliver(env.MAIL_DEAD_LETTER_QUEUE, failed, 1)
    const editor = await consoleLogin('editor')
    const list = textOf((await visitConsole(editor, '/_console/outbox?kind=contact_acknowledgement')).text)
    expect(list).toMatch(/shown-queued-\S+\s+Contact acknowledgement\s+Queued/)
    expect(list).toMatch(/shown-failed-\S+\s+Contact acknowledgement\s+Failed\s+http_500_internal_server_error/)
    expect(list).toMatch(/shown-sent-\S+\s+Contact acknowledgement\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/)
    const one = textOf((await visitConsole(editor, `/_console/outbox/${sent}`)).text)
    const providerId = (await env.DB.prepare('SELECT provider_id FROM outbox WHERE id = ?').bind(sent).first())
      ?.provider_id
    expect(one).toMatch(new RegExp(`Mail service id\\s+${providerId}`))
    expect(textOf((await visitConsole(editor, `/_console/outbox/${failed}`)).text)).toMatch(
      /State\s+Failed\s+http_500_internal_server_error/,
    )
    expect(textOf((await visitConsole(editor, `/_console/outbox/${waiting}`)).text)).toMatch(/State\s+Queued/)
  })
})
