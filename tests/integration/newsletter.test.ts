import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it, vi } from 'vitest'
import { api } from '../../reference-api'
import { NEWSLETTER_MAILS_PER_HOUR } from '../../reference-api/resources/newsletter'
import { tokenHash } from '../../reference-api/passwords'
import italian from '../../demo/messages/it.json'
import { formToken, sendForm } from '../fixtures/lead-forms'
import { LIVE_SEGMENTS } from '../fixtures/demo-markets'
import { slugOf } from '../fixtures/page-slugs'
import { formPost, nextClient, steadyRateLimiters } from '../fixtures/session'
import { ORIGIN, textOf, visit } from '../fixtures/worker'
import { IT_PAGE_KINDS } from '../fixtures/public-pages'

/** Calls the embedded API in-process, as the Worker does, and waits for its background work. */
async function call(path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext()
  const response = await api.fetch(
    new Request(`http://embedded.invalid/api/${path}`, init) as Parameters<typeof api.fetch>[0],
    env,
    ctx,
  )
  const text = await response.text()
  await waitOnExecutionContext(ctx)
  return { status: response.status, text }
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-Locale': 'it', 'X-Tenant': 'it', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})

const TEMPLATE = 'https://site.test/it-it/newsletter/confirm/{token}'
let people = 0
const newAddress = () => `newsletter-${++people}-${Date.now()}@example.com`
/** A form's key, as the Worker sends its form token's id: each call another form. */
const newFormKey = () => crypto.randomUUID().replace(/-/g, '')
const request = (fields: Record<string, unknown> = {}) => ({
  email: newAddress(),
  consent: true,
  link_template: TEMPLATE,
  submission_key: newFormKey(),
  ...fields,
})

const subscribe = (body: unknown, headers: Record<string, string> = {}) =>
  call('newsletter/subscriptions', json(body, headers))
const mailsTo = (email: string) =>
  env.DB.prepare('SELECT subject, body, kind FROM outbox WHERE recipient = ? ORDER BY id')
    .bind(email)
    .all<{ subject: string; body: string; kind: string }>()
    .then(({ results }) => results)
const subscriberOf = (email: string, site = 'it') =>
  env.DB.prepare('SELECT site, email, locale FROM newsletter_subscribers WHERE site = ? AND email = ?')
    .bind(site, email)
    .first<{ site: string; email: string; locale: string }>()
const pendingOf = (email: string) =>
  env.DB.prepare('SELECT * FROM newsletter_requests WHERE email = ?')
    .bind(email)
    .all<Record<string, unknown>>()
    .then(({ results }) => results)
const tokenIn = (body: string) => /newsletter\/confirm\/([A-Za-z0-9_-]{43})/.exec(body)?.[1] as string

describe('POST api/newsletter/subscriptions', () => {
  it('stores a pending request, not a subscriber, and mails a confirmation link built on the template in the X-Locale language', async () => {
    const body = request()
    const answer = await subscribe(body)
    expect(answer.status).toBe(202)
    expect(await subscriberOf(body.email)).toBeNull()
    const pending = await pendingOf(body.email)
    expect(pending).toHaveLength(1)
    expect(pending[0]).toMatchObject({ site: 'it', locale: 'it', used_at: null })
    const [mail] = await mailsTo(body.email)
    expect(mail?.kind).toBe('newsletter_confirmation')
    expect(mail?.subject).toBe(italian.mail.newsletter_confirm_subject)
    expect(mail?.body).toMatch(/^Buongiorno,/)
    expect(mail?.body).toMatch(/https:\/\/site\.test\/it-it\/newsletter\/confirm\/[A-Za-z0-9_-]{43}\n/)
    // Only the token's hash is stored, and the link works for 48 hours.
    const token = tokenIn(mail!.body)
    expect(JSON.stringify(pending)).not.toContain(token)
    expect(pending[0]!.token_hash).toBe(await tokenHash(token))
    const hours = (Date.parse(String(pending[0]!.expires_at)) - Date.now()) / 3600_000
    expect(hours).toBeGreaterThan(47.9)
    expect(hours).toBeLessThanOrEqual(48)
  })

  it('answers an address already subscribed exactly as a new one, and mails it nothing', async () => {
    const body = request()
    await subscribe(body)
    await call('newsletter/confirm', json({ token: tokenIn((await mailsTo(body.email))[0]!.body) }))
    expect(await subscriberOf(body.email)).not.toBeNull()
    const fresh = await subscribe(request())
    const again = await subscribe({ ...body, email: body.email.toUpperCase(), submission_key: newFormKey() })
    expect(again.status).toBe(fresh.status)
    expect(again.text).toBe(fresh.text)
    expect(await mailsTo(body.email)).toHaveLength(1)
  })

  it(`mails one address at most ${NEWSLETTER_MAILS_PER_HOUR} links an hour, one per form, and answers the same after`, async () => {
    const body = request()
    const answers = []
    for (let i = 0; i <= NEWSLETTER_MAILS_PER_HOUR; i++)
      answers.push(await subscribe({ ...body, submission_key: newFormKey() }))
    expect(new Set(answers.map((a) => `${a.status} ${a.text}`)).size).toBe(1)
    expect(await mailsTo(body.email)).toHaveLength(NEWSLETTER_MAILS_PER_HOUR)
  })

  it('stores and mails a form sent twice once, one after the other or at once (its submission_key)', async () => {
    const twice = request()
    const [first, second] = [await subscribe(twice), await subscribe(twice)]
    expect(second).toEqual(first)
    const atOnce = request()
    const answers = await Promise.all([subscribe(atOnce), subscribe(atOnce), subscribe(atOnce)])
    expect(new Set(answers.map((a) => `${a.status} ${a.text}`)).size).toBe(1)
    for (const body of [twice, atOnce]) {
      expect(await mailsTo(body.email), body.email).toHaveLength(1)
      expect(await pendingOf(body.email), body.email).toHaveLength(1)
    }
  })

  it("answers 422 with the fields' message keys to bad input, and 404 without a live market; never a 5xx", async () => {
    const refusals: Array<[unknown, string]> = [
      [request({ email: 'not-an-address' }), 'email'],
      [request({ consent: false }), 'consent'],
      [request({ link_template: 'https://evil.example/phish/{token}' }), 'link_template'],
      [request({ link_template: 'https://site.test/it-it/confirm-email/{token}' }), 'link_template'],
      [request({ submission_key: undefined }), 'submission_key'],
      [request({ submission_key: 'short' }), 'submission_key'],
      ['{"email": ', 'form'],
      [[1, 2, 3], 'form'],
    ]
    for (const [body, field] of refusals) {
      const answer = await subscribe(body)
      expect(answer.status, JSON.stringify(body)).toBe(422)
      expect(answer.text, JSON.stringify(body)).toContain(field === 'form' ? '"message"' : `"${field}"`)
    }
    expect((await subscribe(request(), { 'X-Tenant': 'zz' })).status).toBe(404)
    expect((await subscribe(request(), { 'X-Tenant': '' })).status).toBe(404)
    // A market under maintenance (the demo's Netherlands) takes no sign-up.
    expect((await subscribe(request(), { 'X-Tenant': 'nl', 'X-Locale': 'nl' })).status).toBe(404)
  })
})

describe('GET api/newsletter/confirm/{token} and POST api/newsletter/confirm', () => {
  it('tells the address without subscribing it, then subscribes it once; the link is spent after', async () => {
    const body = request()
    await subscribe(body)
    const token = tokenIn((await mailsTo(body.email))[0]!.body)
    const link = await call(`newsletter/confirm/${token}`)
    expect(link.status).toBe(200)
    expect(link.text).toContain(body.email)
    expect(await subscriberOf(body.email)).toBeNull()
    const confirmed = await call('newsletter/confirm', json({ token }))
    expect(confirmed.status).toBe(200)
    expect(await subscriberOf(body.email)).toEqual({ site: 'it', email: body.email, locale: 'it' })
    expect((await call('newsletter/confirm', json({ token }))).status).toBe(410)
    expect((await call(`newsletter/confirm/${token}`)).status).toBe(410)
  })

  it('answers 404 to an unknown token, 410 to an expired one, 422 to a malformed body', async () => {
    const unknown = 'A'.repeat(43)
    expect((await call(`newsletter/confirm/${unknown}`)).status).toBe(404)
    expect((await call('newsletter/confirm', json({ token: unknown }))).status).toBe(404)
    const body = request()
    await subscribe(body)
    const token = tokenIn((await mailsTo(body.email))[0]!.body)
    await env.DB.prepare(`UPDATE newsletter_requests SET expires_at = '2020-01-01T00:00:00.000Z' WHERE email = ?`)
      .bind(body.email)
      .run()
    expect((await call(`newsletter/confirm/${token}`)).status).toBe(410)
    expect((await call('newsletter/confirm', json({ token }))).status).toBe(410)
    expect(await subscriberOf(body.email)).toBeNull()
    for (const bad of [{ token: 'short' }, {}, 'nonsense'])
      expect((await call('newsletter/confirm', json(bad))).status).toBe(422)
  })
})

/** The footer's newsletter form of a page. */
const footerForm = (html: string) => {
  const footer = html.slice(html.indexOf('<footer'))
  return footer.slice(footer.indexOf('<form'), footer.indexOf('</form>') + 7)
}

/** Signs up from a market's footer form as a person would (a token given 10 s before, a client of its own). */
const signUp = (
  market: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
  bindings: Partial<Cloudflare.Env> = {},
) => sendForm(`/${market}/newsletter`, 'newsletter', fields, headers, bindings)

describe('the newsletter sign-up in the footer', () => {
  it("is a plain same-origin POST form on every live market's pages (each home, a page of each kind in it-it) but the whistleblower channel's and its own, in the market's language, with its token, honeypot and consent", async () => {
    const languages = env.TEST_DEMO_MESSAGES as unknown as Record<string, typeof italian>
    const kinds = IT_PAGE_KINDS
    const pages = [...LIVE_SEGMENTS.map((market) => `/${market}`), ...kinds.map((kind) => `/it-it${kind}`)]
    for (const path of pages) {
      const market = path.split('/')[1]!
      const messages = languages[market.split('-')[1]!]!
      const { text } = await visit(path)
      const form = footerForm(text)
      expect(form, path).toContain(`action="/${market}/newsletter"`)
      expect(form, path).toContain('method="post"')
      expect(form, path).toMatch(/name="form_token" value="[A-Za-z0-9_-]{43}\.\d+\.[A-Za-z0-9_-]{43}"/)
      expect(form, path).toContain('name="homepage"')
      expect(form, path).toContain(`href="/${market}/${slugOf(market, 'privacy-policy')}"`)
      expect(textOf(form), path).toContain(messages.newsletter.consent)
      expect(textOf(form), path).toContain(messages.newsletter.submit)
      // The footer's ids never clash with a form of the page itself.
      expect(form, path).toContain('id="footer-newsletter-email"')
      expect(form, path).toContain('id="footer-newsletter-consent"')
    }
    // The whistleblower channel leaves no trace of a reporter's address, and the newsletter's page is the form itself.
    for (const path of ['/it-it/whistleblower-form', '/it-it/newsletter'])
      expect(footerForm((await visit(path)).text), path).toBe('')
    // The lead-form page keeps its own consent field, and the footer its own.
    const contact = (await visit('/it-it/contatti')).text
    expect(contact.match(/id="field-consent"/g)).toHaveLength(1)
    expect(contact.match(/id="footer-newsletter-consent"/g)).toHaveLength(1)
  })

  it("stores a pending request and mails the link in the market's language, subscribing nobody until the link's button is pressed", async () => {
    const email = newAddress()
    const sent = await signUp('it-it', { email, consent: 'on' })
    expect(sent.status).toBe(303)
    expect(sent.headers.get('Location')).toBe('/it-it/newsletter/sent')
    const [mail] = await mailsTo(email)
    expect(mail?.subject).toBe(italian.mail.newsletter_confirm_subject)
    const token = tokenIn(mail!.body)
    expect(mail?.body).toContain(`${ORIGIN}/it-it/newsletter/confirm/${token}`)
    expect(await subscriberOf(email)).toBeNull()

    const page = await visit('/it-it/newsletter/sent')
    expect(page.status).toBe(200)
    expect(textOf(page.text)).toContain(italian.newsletter.sent_text)

    // Opening the link (a mail scanner does) only shows the button.
    const link = await visit(`/it-it/newsletter/confirm/${token}`)
    expect(link.status).toBe(200)
    expect(link.headers.get('Referrer-Policy')).toBe('no-referrer')
    expect(link.headers.get('Cache-Control')).toContain('no-store')
    expect(textOf(link.text)).toContain(italian.newsletter.confirm_submit)
    expect(link.text).toContain(email)
    expect(await subscriberOf(email)).toBeNull()

    const confirmed = await visit(`/it-it/newsletter/confirm/${token}`, formPost({}))
    expect(confirmed.status).toBe(303)
    expect(confirmed.headers.get('Location')).toBe('/it-it/newsletter/confirmed')
    expect(await subscriberOf(email)).toEqual({ site: 'it', email, locale: 'it' })
    expect(textOf((await visit('/it-it/newsletter/confirmed')).text)).toContain(italian.newsletter.confirmed_title)

    // Spent: the same message, 410.
    const again = await visit(`/it-it/newsletter/confirm/${token}`, formPost({}))
    expect(again.status).toBe(410)
    expect(textOf(again.text)).toContain(italian.newsletter.invalid_title)
  })

  it('answers an address already subscribed exactly as a new one', async () => {
    const email = newAddress()
    await signUp('it-it', { email, consent: 'on' })
    await visit(`/it-it/newsletter/confirm/${tokenIn((await mailsTo(email))[0]!.body)}`, formPost({}))
    const known = await signUp('it-it', { email, consent: 'on' })
    const fresh = await signUp('it-it', { email: newAddress(), consent: 'on' })
    expect(known.status).toBe(fresh.status)
    expect(known.headers.get('Location')).toBe(fresh.headers.get('Location'))
    expect(await mailsTo(email)).toHaveLength(1)
  })

  it('mails one link for a form sent twice (the same token), one after the other and at once; a new form later mails another', async () => {
    for (const together of [false, true]) {
      const email = newAddress()
      const fields = { email, consent: 'on', form_token: await formToken('it-it', 'newsletter') }
      const answers = together
        ? await Promise.all([signUp('it-it', fields), signUp('it-it', fields)])
        : [await signUp('it-it', fields), await signUp('it-it', fields)]
      for (const answer of answers)
        expect(answer.headers.get('Location'), `together: ${together}`).toBe('/it-it/newsletter/sent')
      expect(await mailsTo(email), `together: ${together}`).toHaveLength(1)
      expect(await pendingOf(email), `together: ${together}`).toHaveLength(1)
      // Signing up again from a new form sends a new link (within the hourly limit); the first one still works.
      await signUp('it-it', { email, consent: 'on' })
      const mails = await mailsTo(email)
      expect(mails).toHaveLength(2)
      expect(tokenIn(mails[1]!.body)).not.toBe(tokenIn(mails[0]!.body))
      expect((await visit(`/it-it/newsletter/confirm/${tokenIn(mails[0]!.body)}`)).status).toBe(200)
    }
  })

  it('mails each visitor of a kept page, whose footers share one token, their own link', async () => {
    const form_token = await formToken('it-it', 'newsletter')
    const [first, second] = [newAddress(), newAddress()]
    await Promise.all([
      signUp('it-it', { email: first, consent: 'on', form_token }),
      signUp('it-it', { email: second, consent: 'on', form_token }),
    ])
    await signUp('it-it', { email: first.toUpperCase(), consent: 'on', form_token })
    expect(await mailsTo(first)).toHaveLength(1)
    expect(await mailsTo(second)).toHaveLength(1)
  })

  it("brings the form back with 422 and the field's message for a wrong address or no consent (the newsletter's own), the address kept", async () => {
    const wrong = await signUp('it-it', { email: 'giulia(at)example', consent: 'on' })
    expect(wrong.status).toBe(422)
    expect(textOf(wrong.text)).toContain(italian.validation.email)
    expect(wrong.text).toContain('value="giulia(at)example"')
    expect(wrong.text).toContain('aria-invalid="true"')
    const unticked = await signUp('it-it', { email: newAddress() })
    expect(unticked.status).toBe(422)
    // The newsletter's own message: not the lead forms' "so that we can answer your request".
    expect(textOf(unticked.text)).toContain(italian.validation.newsletter_consent)
    expect(textOf(unticked.text)).not.toContain(italian.validation.consent)
    // The page's own form, and no second one in its footer.
    expect(unticked.text.match(/<form[^>]*newsletter-form/g)).toHaveLength(1)
  })

  it('sends a bot (honeypot filled, no token, a forged one) to the same page and stores nothing', async () => {
    const tries: Array<Record<string, string>> = [
      { homepage: 'https://spam.example' },
      { form_token: '' },
      { form_token: await formToken('it-it', 'contact') },
      { form_token: await formToken('it-it', 'newsletter', 0) },
    ]
    for (const extra of tries) {
      const email = newAddress()
      const answer = await signUp('it-it', { email, consent: 'on', ...extra })
      expect(answer.status, JSON.stringify(extra)).toBe(303)
      expect(answer.headers.get('Location')).toBe('/it-it/newsletter/sent')
      expect(await pendingOf(email)).toHaveLength(0)
      expect(await mailsTo(email)).toHaveLength(0)
    }
  })

  it('gives an expired form back with a new token and the address kept', async () => {
    const email = newAddress()
    const answer = await signUp('it-it', {
      email,
      consent: 'on',
      form_token: await formToken('it-it', 'newsletter', 25 * 3600),
    })
    expect(answer.status).toBe(422)
    expect(textOf(answer.text)).toContain(italian.forms.expired)
    expect(answer.text).toContain(`value="${email}"`)
    expect(await pendingOf(email)).toHaveLength(0)
  })

  it('answers 429 with Retry-After past the limit of posts per client', async () => {
    const limiters = steadyRateLimiters()
    const client = { 'CF-Connecting-IP': '203.0.113.91' }
    const limit = env.TEST_RATE_LIMITS.FORM_ATTEMPTS as number
    for (let i = 0; i < limit; i++)
      expect((await signUp('it-it', { email: 'wrong', consent: 'on' }, client, limiters)).status).toBe(422)
    const refused = await signUp('it-it', { email: newAddress(), consent: 'on' }, client, limiters)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('Retry-After')).toBe('60')
    expect(textOf(refused.text)).toContain(italian.validation.too_many_attempts)
    expect(
      (await signUp('it-it', { email: newAddress(), consent: 'on' }, { 'CF-Connecting-IP': nextClient() }, limiters))
        .status,
    ).toBe(303)
  })

  it('refuses a cross-site post, of the form or of a confirmation, with 403', async () => {
    const email = newAddress()
    const token = await formToken('it-it', 'newsletter')
    const attempts: Array<Record<string, string>> = [
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' },
      { Origin: 'https://evil.example' },
    ]
    for (const headers of attempts) {
      const form = await visit('/it-it/newsletter', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ email, consent: 'on', form_token: token }).toString(),
      })
      expect(form.status).toBe(403)
      const confirm = await visit(`/it-it/newsletter/confirm/${'A'.repeat(43)}`, { method: 'POST', headers })
      expect(confirm.status).toBe(403)
    }
    expect(await pendingOf(email)).toHaveLength(0)
  })

  it('answers 404 to an unknown or malformed link and 410 to an expired one, with the same message and a way to sign up again', async () => {
    for (const [path, status] of [
      [`/it-it/newsletter/confirm/${'B'.repeat(43)}`, 404],
      ['/it-it/newsletter/confirm/x!', 404],
    ] as const) {
      const page = await visit(path)
      expect(page.status, path).toBe(status)
      expect(textOf(page.text)).toContain(italian.newsletter.invalid_text)
      expect(page.text).toContain('href="/it-it/newsletter"')
    }
    const email = newAddress()
    await signUp('it-it', { email, consent: 'on' })
    const token = tokenIn((await mailsTo(email))[0]!.body)
    await env.DB.prepare(`UPDATE newsletter_requests SET expires_at = '2020-01-01T00:00:00.000Z' WHERE email = ?`)
      .bind(email)
      .run()
    expect((await visit(`/it-it/newsletter/confirm/${token}`)).status).toBe(410)
    expect((await visit(`/it-it/newsletter/confirm/${token}`, formPost({}))).status).toBe(410)
    expect(await subscriberOf(email)).toBeNull()
  })

  it("writes neither the link's token nor the address into any log line", async () => {
    const email = newAddress()
    await signUp('it-it', { email, consent: 'on' })
    const token = tokenIn((await mailsTo(email))[0]!.body)
    const lines: string[] = []
    for (const level of ['log', 'warn', 'error', 'info'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')))
    }
    try {
      await visit(`/it-it/newsletter/confirm/${token}`)
      await visit(`/it-it/newsletter/confirm/${token}`, formPost({}))
      await signUp('it-it', { email: 'wrong', consent: 'on' })
    } finally {
      vi.restoreAllMocks()
    }
    const logged = lines.join('\n')
    expect(logged).toContain('"path":"/it-it/newsletter/confirm/:token"')
    expect(logged).not.toContain(token)
    expect(logged).not.toContain(email)
    expect(logged).not.toContain('wrong')
  })

  it('answers 4xx, never 5xx, to any body', async () => {
    const bodies = [
      '',
      'email=%ZZ',
      `consent=on&email=${'a'.repeat(5000)}@example.com`,
      '\u0000\u0001',
      'form_token=x.y.z&email=a@b.c&consent=on',
    ]
    for (const body of bodies) {
      const { status } = await visit('/it-it/newsletter', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: ORIGIN,
          'CF-Connecting-IP': nextClient(),
        },
        body,
      })
      expect(status, body.slice(0, 40)).toBeLessThan(500)
    }
  })
})
