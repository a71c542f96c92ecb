import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TURNSTILE_VERIFY_URL } from '../../src/forms/human-check'
import { httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { formToken, mailsOf, referenceOf, sendForm, storedSubmission, submissionCount } from '../fixtures/lead-forms'
import { formPost, nextClient, steadyRateLimiters } from '../fixtures/session'
import { ORIGIN, textOf, visit } from '../fixtures/worker'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const CONTACT = {
  topic: 'warranty',
  name: 'Giulia Rossi',
  email: 'giulia@example.com',
  order_code: '',
  message: 'The bell of my Strada rattles.',
  consent: 'on',
}
const COMPANY = {
  company_name: 'Vélo Rive Gauche SARL',
  registration_number: 'FR 40 123456789',
  address_line: '12 rue des Cyclistes',
  postal_code: '75006',
  city: 'Paris',
  country_code: 'FR',
  website: 'www.velorivegauche.example',
  contact_name: 'Camille Martin',
  email: 'camille@velorivegauche.example',
  phone: '+33 1 55 55 01 01',
  message: '',
  consent: 'on',
}

/** Every log line written meanwhile, as text. */
function logLines() {
  const lines: string[] = []
  for (const level of ['log', 'warn', 'error', 'info'] as const) {
    vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line)))
  }
  return lines
}

describe('the contact form', () => {
  it('shows its form on the contact page, with a token, a honeypot, the privacy consent and no cache', async () => {
    const { status, text, headers } = await visit('/it-it/contatti')
    expect(status).toBe(200)
    expect(text).toMatch(/<form class="stacked-form lead-form" aria-labelledby="lead-form-title"[^>]* method="post">/)
    expect(text).toContain('name="form_token"')
    expect(text).toContain('name="homepage"')
    expect(text).toContain('name="consent"')
    expect(text).toContain('name="topic"')
    expect(headers.get('Cache-Control')).toBe('no-store')
    expect(headers.get('Content-Security-Policy')).not.toContain('frame-src')
  })

  it("stores a message, mails the contact recipient (in the market's language) and the visitor, and confirms with a reference", async () => {
    const { status, headers } = await sendForm('/it-it/contatti', 'contact', CONTACT)
    expect(status).toBe(303)
    const reference = referenceOf(headers.get('Location'))
    expect(headers.get('Location')).toBe(`/it-it/contatti/sent?reference=${reference}`)
    expect(reference).toMatch(/^CT-[0-9A-Z]{4}-[0-9A-Z]{4}$/)
    const stored = await storedSubmission(reference!)
    expect(stored).toMatchObject({
      kind: 'contact',
      site: 'it',
      locale: 'it',
      email: 'giulia@example.com',
      file_key: null,
    })
    expect(stored!.fields).toMatchObject({ topic: 'warranty', message: CONTACT.message })
    expect(stored!.fields).not.toHaveProperty('submission_key')
    const [notice, acknowledgement] = await mailsOf(reference!)
    expect(notice).toMatchObject({ recipient: 'hello.it@aurora-cycles.example', kind: 'contact_notice' })
    expect(notice!.subject).toContain(reference!)
    expect(notice!.body).toContain(CONTACT.message)
    expect(acknowledgement).toMatchObject({ recipient: 'giulia@example.com', kind: 'contact_acknowledgement' })
    expect(acknowledgement!.body).toContain(reference!)
    const confirmation = await visit(headers.get('Location')!)
    expect(confirmation.status).toBe(200)
    expect(confirmation.text).toContain('<meta name="robots" content="noindex"/>')
    expect(textOf(confirmation.text)).toContain(reference!)
  })

  it("writes the acknowledgement in the visitor's language and the notification in the market's first one", async () => {
    const { headers } = await sendForm('/ch-it/contatti', 'contact', { ...CONTACT, email: 'luca@example.com' })
    const reference = referenceOf(headers.get('Location'))!
    const [notice, acknowledgement] = await mailsOf(reference)
    const german = (await import('../../demo/messages/de.json')).default as { forms: { contact: { name: string } } }
    const italian = (await import('../../demo/messages/it.json')).default as {
      forms: { contact: { name: string; next: string } }
    }
    // ch's first language is German: the notice names the form in German; the acknowledgement is Italian.
    expect(notice).toMatchObject({ recipient: 'hello.ch@aurora-cycles.example' })
    expect(notice!.subject).toContain(german.forms.contact.name)
    expect(acknowledgement).toMatchObject({ recipient: 'luca@example.com' })
    expect(acknowledgement!.body).toContain(italian.forms.contact.next)
    expect(acknowledgement!.subject).toContain(italian.forms.contact.name)
  })

  it("takes a long message in Hebrew (6 bytes a letter once encoded) up to the field's 5,000 characters", async () => {
    const message = 'ש'.repeat(5000)
    const { status, headers } = await sendForm('/il-he/tsor-kesher', 'contact', { ...CONTACT, message })
    expect(status).toBe(303)
    expect((await storedSubmission(referenceOf(headers.get('Location'))!))!.fields.message).toBe(message)
  })

  it("refuses a name that carries a web or e-mail address, so the acknowledgement cannot carry someone's link", async () => {
    for (const name of ['Win at https://spam.example', 'www.spam.example', 'me@spam.example']) {
      const { status, text } = await sendForm('/int-en/contact-us', 'contact', { ...CONTACT, name })
      expect(status, name).toBe(422)
      expect(text).toContain('id="field-name-error"')
    }
  })

  it('keeps the values, names the fields and stores nothing on an error', async () => {
    const before = await submissionCount()
    const { status, text } = await sendForm('/it-it/contatti', 'contact', {
      ...CONTACT,
      topic: 'gossip',
      email: 'not-an-address',
      order_code: '#1',
      message: ' ',
      consent: '',
    })
    expect(status).toBe(422)
    expect(text).toContain('value="not-an-address"')
    expect(text).toContain('value="Giulia Rossi"')
    for (const field of ['topic', 'email', 'order_code', 'message', 'consent'])
      expect(text).toContain(`id="field-${field}-error"`)
    expect(text).toContain('role="alert"')
    expect(await submissionCount()).toBe(before)
  })

  it.each([
    ['topic', { topic: '' }, 'topic'],
    ['name', { name: '' }, 'required'],
    ['name', { name: 'x'.repeat(121) }, 'too_long'],
    ['email', { email: '' }, 'required'],
    ['email', { email: 'giulia@' }, 'email'],
    ['order_code', { order_code: 'no spaces' }, 'order_code'],
    ['message', { message: '' }, 'required'],
    ['consent', { consent: '' }, 'consent'],
  ])('gives %s its message for %j', async (field, change, key) => {
    const { status, text } = await sendForm('/int-en/contact-us', 'contact', { ...CONTACT, ...change })
    expect(status).toBe(422)
    const en = (await import('../../src/i18n/en.json')).default as { validation: Record<string, string> }
    const error = new RegExp(`id="field-${field}-error">([^<]*)<`).exec(text)?.[1]
    expect(error?.replace(/&#x27;/g, "'")).toBe(en.validation[key])
  })

  it('answers the confirmation of a malformed reference or of a page without a form with 404', async () => {
    expect((await visit('/it-it/contatti/sent?reference=%3Cscript%3E')).status).toBe(404)
    expect((await visit('/it-it/contatti/sent')).status).toBe(404)
    expect((await visit('/it-it/chi-siamo/sent?reference=CT-AAAA-BBBB')).status).toBe(404)
  })
})

describe('the partner forms', () => {
  it("stores a dealer application with its services and sends it to the partner recipient (the brand's, where the market has none)", async () => {
    const body = new URLSearchParams({
      ...COMPANY,
      country_code: 'IT',
      brands: 'Bianchi, Pinarello',
      form_token: await formToken('it-it', 'dealer'),
    })
    body.append('services', 'sales')
    body.append('services', 'workshop')
    const sent = await visit('/it-it/diventa-rivenditore', {
      ...formPost({}, { 'CF-Connecting-IP': nextClient() }),
      body: body.toString(),
    })
    expect(sent.status, textOf(sent.text).slice(0, 300)).toBe(303)
    const reference = referenceOf(sent.headers.get('Location'))!
    expect(reference).toMatch(/^DL-/)
    expect((await storedSubmission(reference))!.fields).toMatchObject({
      kind: 'dealer',
      services: ['sales', 'workshop'],
      website: 'https://www.velorivegauche.example',
    })
    const [notice] = await mailsOf(reference)
    expect(notice!.recipient).toBe('partners@aurora-cycles.example')
  })

  it('asks a dealer for at least one service, and keeps the ones ticked', async () => {
    const body = new URLSearchParams({ ...COMPANY, brands: '', form_token: await formToken('it-it', 'dealer') })
    body.append('services', 'rental')
    const { status, text } = await visit('/it-it/diventa-rivenditore', {
      ...formPost({}, { 'CF-Connecting-IP': nextClient() }),
      body: body.toString(),
    })
    expect(status).toBe(422)
    expect(text).toMatch(/name="services" checked="" value="rental"/)
    expect(text).not.toMatch(/name="services" checked="" value="sales"/)
    expect(text).toContain('id="field-brands-error"')
    const none = await sendForm('/it-it/diventa-rivenditore', 'dealer', { ...COMPANY, brands: 'Bianchi' })
    expect(none.text).toContain('id="field-services-error"')
  })

  it('stores a distributor application with its territory and volume', async () => {
    const { status, headers } = await sendForm('/es-es/hazte-distribuidor', 'distributor', {
      ...COMPANY,
      territory: 'Portugal, Spain',
      yearly_volume: '500_2000',
    })
    expect(status).toBe(303)
    const reference = referenceOf(headers.get('Location'))!
    expect(reference).toMatch(/^DS-/)
    expect((await storedSubmission(reference))!.fields).toMatchObject({
      kind: 'distributor',
      territory: 'Portugal, Spain',
      yearly_volume: '500_2000',
    })
  })

  it.each([
    ['registration_number', { registration_number: '#' }, 'registration'],
    ['website', { website: 'not a site' }, 'website'],
    ['country_code', { country_code: 'France' }, 'country'],
    ['phone', { phone: 'call me' }, 'phone'],
    ['yearly_volume', { yearly_volume: 'lots' }, 'volume'],
    ['territory', { territory: '' }, 'required'],
  ])("gives the distributor form's %s its message", async (field, change, key) => {
    const { status, text } = await sendForm('/int-en/become-a-distributor', 'distributor', {
      ...COMPANY,
      territory: 'Benelux',
      yearly_volume: 'under_100',
      ...change,
    })
    expect(status).toBe(422)
    const en = (await import('../../src/i18n/en.json')).default as { validation: Record<string, string> }
    expect(text.replace(/&#x27;/g, "'")).toContain(`id="field-${field}-error">${en.validation[key]}<`)
  })

  it('answers 404 to GET and POST where the market switched the partner forms off (fr-fr), and links neither', async () => {
    expect((await visit('/fr-fr/devenir-revendeur')).status).toBe(404)
    expect((await visit('/fr-fr/devenir-distributeur')).status).toBe(404)
    const before = await submissionCount()
    const post = await sendForm('/fr-fr/devenir-revendeur', 'dealer', { ...COMPANY, brands: 'x', services: 'sales' })
    expect(post.status).toBe(404)
    expect(await submissionCount()).toBe(before)
    expect((await visit('/fr-fr/devenir-revendeur/sent?reference=DL-AAAA-BBBB')).status).toBe(404)
    const home = await visit('/fr-fr')
    expect(home.text).not.toContain('become-a-dealer')
    expect(home.text).not.toContain('become-a-distributor')
    expect(home.text).not.toContain('devenir-revendeur')
  })
})

describe('abuse', () => {
  it('shows a bot that fills the honeypot the usual confirmation and stores nothing', async () => {
    const before = await submissionCount()
    const { status, headers } = await sendForm('/it-it/contatti', 'contact', {
      ...CONTACT,
      homepage: 'https://spam.example',
    })
    expect(status).toBe(303)
    expect(referenceOf(headers.get('Location'))).toMatch(/^CT-[0-9A-Z]{4}-[0-9A-Z]{4}$/)
    expect((await visit(headers.get('Location')!)).status).toBe(200)
    expect(await submissionCount()).toBe(before)
  })

  it.each([
    ['sent too fast', async () => formToken('it-it', 'contact', 1)],
    ['without a token', async () => ''],
    ['with a forged token', async () => `${'A'.repeat(43)}.${Math.floor(Date.now() / 1000) - 60}.${'B'.repeat(43)}`],
    ["with another form's token", async () => formToken('it-it', 'dealer')],
    ["with another market's token", async () => formToken('es-es', 'contact')],
  ])("treats a form %s as a bot's: a confirmation, nothing stored, nothing mailed", async (_, token) => {
    const before = await submissionCount()
    const mailsBefore = await env.DB.prepare('SELECT COUNT(*) AS n FROM outbox').first<number>('n')
    const { status } = await sendForm('/it-it/contatti', 'contact', { ...CONTACT, form_token: await token() })
    expect(status).toBe(303)
    expect(await submissionCount()).toBe(before)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM outbox').first<number>('n')).toBe(mailsBefore)
  })

  it("follows the deployment's FORM_MIN_FILL_SECONDS: 0 takes a form sent at once, 10 refuses one sent after 5 s", async () => {
    const before = await submissionCount()
    const atOnce = await sendForm(
      '/it-it/contatti',
      'contact',
      { ...CONTACT, form_token: await formToken('it-it', 'contact', 0) },
      {},
      { FORM_MIN_FILL_SECONDS: '0' },
    )
    expect(atOnce.status).toBe(303)
    expect(await submissionCount()).toBe(before + 1)
    const slower = await sendForm(
      '/it-it/contatti',
      'contact',
      { ...CONTACT, form_token: await formToken('it-it', 'contact', 5) },
      {},
      { FORM_MIN_FILL_SECONDS: '10' },
    )
    expect(slower.status).toBe(303)
    expect(await submissionCount()).toBe(before + 1)
  })

  it('gives a form left open too long back with its values and a new token, which may be sent at once', async () => {
    const old = await formToken('it-it', 'contact', 25 * 3600)
    const { status, text } = await sendForm('/it-it/contatti', 'contact', { ...CONTACT, form_token: old })
    expect(status).toBe(422)
    expect(text).toContain(CONTACT.message)
    const renewed = /name="form_token" value="([^"]+)"/.exec(text)?.[1]
    expect(renewed).toBeTruthy()
    expect(renewed).not.toBe(old)
    const before = await submissionCount()
    const sent = await sendForm('/it-it/contatti', 'contact', { ...CONTACT, form_token: renewed! })
    expect(sent.status).toBe(303)
    expect(await submissionCount()).toBe(before + 1)
  })

  it('stores one submission when the same form is sent twice (a double click, a refresh), with one reference', async () => {
    const token = await formToken('it-it', 'contact')
    const before = await submissionCount()
    const [first, second] = await Promise.all([
      sendForm('/it-it/contatti', 'contact', { ...CONTACT, form_token: token }),
      sendForm('/it-it/contatti', 'contact', { ...CONTACT, form_token: token }),
    ])
    const third = await sendForm('/it-it/contatti', 'contact', { ...CONTACT, form_token: token })
    expect([first.status, second.status, third.status]).toEqual([303, 303, 303])
    const references = new Set([first, second, third].map((answer) => referenceOf(answer.headers.get('Location'))))
    expect(references.size).toBe(1)
    expect(await submissionCount()).toBe(before + 1)
    expect(await mailsOf([...references][0]!)).toHaveLength(2)
  })

  it("answers 429 with Retry-After past the limit of posts per client and form, in the market's language, and keeps the values", async () => {
    const limiters = steadyRateLimiters()
    const client = { 'CF-Connecting-IP': '203.0.113.77' }
    const limit = env.TEST_RATE_LIMITS.FORM_ATTEMPTS as number
    for (let i = 0; i < limit; i++) {
      expect(
        (await sendForm('/it-it/contatti', 'contact', { ...CONTACT, email: 'wrong' }, client, limiters)).status,
      ).toBe(422)
    }
    const refused = await sendForm('/it-it/contatti', 'contact', CONTACT, client, limiters)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('Retry-After')).toBe('60')
    expect(refused.text).toContain(CONTACT.message)
    const it_ = (await import('../../demo/messages/it.json')).default as { validation: Record<string, string> }
    expect(textOf(refused.text)).toContain(it_.validation.too_many_attempts)
    // Another form, or another client, is counted apart.
    expect(
      (await sendForm('/it-it/diventa-distributore', 'distributor', { ...COMPANY }, client, limiters)).status,
    ).toBe(422)
    expect((await sendForm('/it-it/contatti', 'contact', CONTACT, {}, limiters)).status).toBe(303)
  })

  it('refuses a cross-site post with 403 and stores nothing', async () => {
    const before = await submissionCount()
    const token = await formToken('it-it', 'contact')
    const attempts: Array<Record<string, string>> = [
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' },
      { Origin: 'https://evil.example' },
    ]
    for (const headers of attempts) {
      const { status } = await visit('/it-it/contatti', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ ...CONTACT, form_token: token }).toString(),
      })
      expect(status).toBe(403)
    }
    expect(await submissionCount()).toBe(before)
  })

  it('answers 413 with the error page to a contact form larger than 64 KiB', async () => {
    const before = await submissionCount()
    const { status, text } = await sendForm('/it-it/contatti', 'contact', { ...CONTACT, message: 'x'.repeat(70_000) })
    expect(status).toBe(413)
    expect(text).toContain('This form is too large.')
    expect(await submissionCount()).toBe(before)
  })

  it('never writes the content of a form, the e-mail address or the token into a log line', async () => {
    const lines = logLines()
    const token = await formToken('it-it', 'contact')
    await sendForm('/it-it/contatti', 'contact', {
      ...CONTACT,
      form_token: token,
      email: 'secret.person@example.com',
      message: 'Very personal words',
    })
    await sendForm('/it-it/contatti', 'contact', {
      ...CONTACT,
      email: 'secret.person@',
      message: 'Very personal words',
    })
    await sendForm('/it-it/contatti', 'contact', { ...CONTACT, homepage: 'bot', message: 'Very personal words' })
    const all = lines.join('\n')
    expect(all).toContain('"path":"/it-it/contatti"')
    for (const secret of ['secret.person', 'Very personal words', 'Giulia', token.split('.')[0]!])
      expect(all).not.toContain(secret)
  })
})

describe('Turnstile, when the deployment configures it', () => {
  const turnstile = { TURNSTILE_SITE_KEY: '1x00000000000000000000AA', TURNSTILE_SECRET_KEY: 'test-turnstile-secret' }

  /** Turnstile's siteverify answered by the test: success for the token `human`. */
  function stubTurnstile() {
    const checks: FormData[] = []
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      if (request.url !== TURNSTILE_VERIFY_URL) throw new Error(`unexpected fetch to ${request.url}`)
      const form = await request.formData()
      checks.push(form)
      return Response.json({
        success: form.get('response') === 'human' && form.get('secret') === turnstile.TURNSTILE_SECRET_KEY,
      })
    })
    return checks
  }

  it("shows the widget, and the page's policy allows its frame", async () => {
    const { text, headers } = await visit('/it-it/contatti', {}, turnstile)
    expect(text).toContain('class="cf-turnstile" data-sitekey="1x00000000000000000000AA"')
    expect(text).toMatch(
      /<script src="https:\/\/challenges\.cloudflare\.com\/turnstile\/v0\/api\.js" async="" defer="" nonce="[^"]+"/,
    )
    expect(headers.get('Content-Security-Policy')).toMatch(/frame-src [^;]*https:\/\/challenges\.cloudflare\.com/)
  })

  it('sends a form Turnstile passed, and gives one it refused back with a message, storing nothing', async () => {
    const checks = stubTurnstile()
    const client = { 'CF-Connecting-IP': '192.0.2.44' }
    const passed = await sendForm(
      '/it-it/contatti',
      'contact',
      { ...CONTACT, 'cf-turnstile-response': 'human' },
      client,
      turnstile,
    )
    expect(passed.status).toBe(303)
    expect(checks[0]!.get('remoteip')).toBe('192.0.2.44')
    const before = await submissionCount()
    const refused = await sendForm(
      '/it-it/contatti',
      'contact',
      { ...CONTACT, 'cf-turnstile-response': 'robot' },
      {},
      turnstile,
    )
    expect(refused.status).toBe(422)
    expect(refused.text).toContain(CONTACT.message)
    const missing = await sendForm('/it-it/contatti', 'contact', CONTACT, {}, turnstile)
    expect(missing.status).toBe(422)
    expect(await submissionCount()).toBe(before)
  })

  it('keeps the form with a message (503) when Turnstile does not answer', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Network connection lost.')
    })
    const { status, text } = await sendForm(
      '/it-it/contatti',
      'contact',
      { ...CONTACT, 'cf-turnstile-response': 'human' },
      {},
      turnstile,
    )
    expect(status).toBe(503)
    expect(text).toContain(CONTACT.message)
  })
})

describe('when the API falters', () => {
  it('gives the form back with everything typed (503) and stores nothing; sent again once the API is back, it is stored once', async () => {
    const upstream = httpUpstream()
    upstream.fail('forms/', 503)
    const token = await formToken('it-it', 'contact')
    const bindings = { UPSTREAM_URL, UPSTREAM_TIMEOUT_MS: '300' }
    const failed = await sendForm('/it-it/contatti', 'contact', { ...CONTACT, form_token: token }, {}, bindings)
    expect(failed.status).toBe(503)
    expect(failed.text).toContain(CONTACT.message)
    expect(failed.text).toContain(`value="${token}"`)
    upstream.heal()
    const sent = await sendForm('/it-it/contatti', 'contact', { ...CONTACT, form_token: token }, {}, bindings)
    expect(sent.status).toBe(303)
    const call = upstream.requests.find((request) => request.url === `${UPSTREAM_URL}/api/forms/contact`)
    expect(call?.headers.get('X-Tenant')).toBe('it')
  })

  it('answers the form without a form, and never a 500, when SESSION_SECRET is missing', async () => {
    const page = await visit('/it-it/contatti', {}, { SESSION_SECRET: undefined })
    expect(page.status).toBe(200)
    expect(page.text).not.toContain('name="form_token"')
    const post = await visit('/it-it/contatti', formPost(CONTACT, { 'CF-Connecting-IP': nextClient() }), {
      SESSION_SECRET: undefined,
    })
    expect(post.status).toBe(503)
  })
})

describe('bad input on every form route never produces a 5xx', () => {
  const ROUTES = [
    '/it-it/contatti',
    '/it-it/diventa-rivenditore',
    '/it-it/diventa-distributore',
    '/it-it/prova-su-strada',
    '/it-it/lavora-con-noi',
    '/il-he/tsor-kesher',
    '/il-he/nesiat-mivchan',
    '/it-it/chi-siamo',
    '/it-it/nowhere',
    '/de-de/probefahrt',
    '/pt-pt/trabalhe-connosco',
  ]
  const field = fc.constantFrom(
    'topic',
    'name',
    'email',
    'order_code',
    'message',
    'consent',
    'form_token',
    'homepage',
    'services',
    'kind',
    'website',
    'country_code',
    'yearly_volume',
    'company_name',
    'registration_number',
    'cf-turnstile-response',
    '__proto__',
    'constructor',
    'product',
    'dealer',
    'date',
    'part_of_day',
    'first_name',
    'last_name',
    'phone',
    'position',
    'cover_letter',
    'cv',
  )
  const value = fc.oneof(
    fc.string({ maxLength: 60 }),
    fc.constantFrom(
      'on',
      '',
      'sales',
      'CT-AAAA-BBBB',
      'x'.repeat(300),
      'aurora-strada-9',
      'cicli-bergamasca',
      '2026-12-01',
      '0000-00-00',
      'morning',
      '1',
      '-1',
    ),
  )

  it('answers any fields, any token and any body below 500', async () => {
    const tokens = await Promise.all(['contact', 'test_ride', 'job', 'dealer'].map((kind) => formToken('it-it', kind)))
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        fc.array(fc.tuple(field, value), { maxLength: 14 }),
        fc.option(fc.constantFrom(...tokens), { nil: undefined }),
        fc.constantFrom(
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'text/plain',
          'application/json',
        ),
        async (path, pairs, token, type) => {
          const body = new URLSearchParams(pairs)
          if (token) body.set('form_token', token)
          const { status } = await visit(path, {
            method: 'POST',
            headers: {
              'Content-Type': type,
              Origin: ORIGIN,
              'Sec-Fetch-Site': 'same-origin',
              'CF-Connecting-IP': nextClient(),
            },
            body: body.toString(),
          })
          expect(status, `${path} ${type}`).toBeLessThan(500)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('answers any multipart body with any file below 500', async () => {
    const token = await formToken('it-it', 'job')
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/it-it/lavora-con-noi', '/it-it/contatti', '/it-it/prova-su-strada'),
        fc.array(fc.tuple(field, value), { maxLength: 10 }),
        fc.uint8Array({ maxLength: 2048 }),
        fc.string({ maxLength: 40 }),
        async (path, pairs, bytes, name) => {
          // Written by hand, as a browser would send it: any file name, any bytes.
          const boundary = '----fuzz7MA4YWxkTrZu0gW'
          const text = (field: string, value: string) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`
          const head = [...pairs.map(([key, item]) => text(key, item)), text('form_token', token)].join('')
          const file = `--${boundary}\r\nContent-Disposition: form-data; name="cv"; filename="${name.replace(/["\r\n]/g, '_')}"\r\nContent-Type: application/pdf\r\n\r\n`
          const body = new Blob([head, file, bytes, `\r\n--${boundary}--\r\n`])
          const { status } = await visit(path, {
            method: 'POST',
            headers: {
              'Content-Type': `multipart/form-data; boundary=${boundary}`,
              Origin: ORIGIN,
              'Sec-Fetch-Site': 'same-origin',
              'CF-Connecting-IP': nextClient(),
            },
            body: await body.arrayBuffer(),
          })
          expect(status, path).toBeLessThan(500)
        },
      ),
      { numRuns: 80 },
    )
  })
})
