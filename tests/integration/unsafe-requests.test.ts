import { env } from 'cloudflare:workers'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { app } from '../../src/app'
import { CASE_FORM_BYTES } from '../../src/console/cases'
import { DEFAULT_BODY_LIMIT, acceptBodiesUpTo, unsafeRequests } from '../../src/security/unsafe-requests'
import { REPORT_BODY_BYTES } from '../../src/pages/whistleblower/report'
import { MAIL_EVENT_BODY_BYTES } from '../../src/mail/mail-events'
import { WEBHOOK_BODY_BYTES } from '../../src/payments/webhook'
import { logIn, sessions, visitAs } from '../fixtures/session'
import { ORIGIN, visit } from '../fixtures/worker'

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/**
 * Routes that read more than 16 KiB whatever the path's parameters: the whistleblower channel's attachments, a case
 * handler's message of 10,000 characters in any script.
 */
const LARGER_BODIES: Record<string, number> = {
  'POST /:market/whistleblower-form': REPORT_BODY_BYTES,
  'POST /:market/whistleblower-form/status': REPORT_BODY_BYTES,
  // A payment provider's event (tests/integration/payments.test.ts).
  'POST /_webhooks/payments': WEBHOOK_BODY_BYTES,
  // The mail service's bounces and complaints (tests/integration/mail-queue.test.ts).
  'POST /_webhooks/mail': MAIL_EVENT_BODY_BYTES,
  ...Object.fromEntries(
    ['messages', 'notes', 'close'].map((action) => [`POST /_console/cases/:id/${action}`, CASE_FORM_BYTES]),
  ),
}
/**
 * Routes other sites may call: they prove their caller themselves (the purge's bearer secret, a webhook's signature,
 * the newsletter's signed one-click unsubscribe link, RFC 8058: tests/integration/newsletter-unsubscribe.test.ts).
 */
const CROSS_SITE_ALLOWED = new Set([
  'POST /_purge',
  'POST /_rewrap/whistleblower',
  'POST /_webhooks/payments',
  'POST /_webhooks/mail',
  'POST /:market/newsletter/unsubscribe/:token',
])

/** Every unsafe route of the Worker, with a path it answers (parameters filled in), those that allow other sites included. */
const everyUnsafeRoute = () =>
  [
    ...new Set(
      app.routes
        // Middleware (`app.use`, e.g. the console sections' guards) is not a route: it answers nothing of its own.
        .filter((route) => (UNSAFE.has(route.method) || route.method === 'ALL') && route.handler.length < 2)
        .map((route) => `${route.method} ${route.path}`),
    ),
  ].map((route) => {
    const [method, pattern] = route.split(' ') as [string, string]
    const path = pattern
      .replace(':market', 'it-it')
      .replace(/:[a-z]+/gi, '1')
      .replace('*', 'sites')
    return { route, method: method === 'ALL' ? 'POST' : method, path }
  })

/** The unsafe routes only this site may call. */
const unsafeRoutes = () => everyUnsafeRoute().filter(({ route }) => !CROSS_SITE_ALLOWED.has(route))

/** How another site makes a browser send a request: a form, a `text/plain` fetch, a fetch without a body type. */
const CROSS_SITE_SENDS: Array<[string, Record<string, string>]> = [
  [
    'a form',
    {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Sec-Fetch-Site': 'cross-site',
      Origin: 'https://evil.example',
    },
  ],
  ['text/plain', { 'Content-Type': 'text/plain', 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' }],
  ['no content type', { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' }],
  [
    'a browser without fetch metadata',
    { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example' },
  ],
  [
    'a same-site subdomain',
    {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Sec-Fetch-Site': 'same-site',
      Origin: 'https://shop.site.test',
    },
  ],
  // A body type a page cannot send without a preflight is judged the same: the rule is where it came from, not its type.
  ['JSON', { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' }],
  [
    'JSON from a browser without fetch metadata',
    { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
  ],
]

describe('cross-site requests', () => {
  it('knows the unsafe routes it protects (a new one is protected without a line of its own)', () => {
    expect(unsafeRoutes().map(({ route }) => route)).toEqual(
      expect.arrayContaining([
        'POST /login',
        'POST /logout',
        'POST /_market',
        'POST /:market/my-account/addresses/:id',
      ]),
    )
  })

  it.each(CROSS_SITE_SENDS)(
    'refuses every unsafe route sent from another site (%s) with 403, before its handler runs',
    async (_how, headers) => {
      const routes = unsafeRoutes()
      for (const { route, method, path } of routes) {
        const { status, text } = await visit(path, { method, headers, body: 'email=a@b.c&password=x' })
        expect(status, route).toBe(403)
        expect(text, route).toContain('This form was sent from another site.')
      }
    },
  )

  it('changes nothing when it refuses: a cross-site address form stores no address, a cross-site logout ends no session', async () => {
    const session = await logIn()
    const addresses = () => env.DB.prepare('SELECT COUNT(*) AS n FROM addresses').first<number>('n')
    const before = await addresses()
    const [, headers] = CROSS_SITE_SENDS[0] as [string, Record<string, string>]
    const fields = 'first_name=Eve&last_name=X&line1=Via%201&postal_code=20100&city=Milano&country_code=IT'
    expect(
      (await visitAs(session, '/it-it/my-account/addresses', { method: 'POST', headers, body: fields })).status,
    ).toBe(403)
    expect(await addresses()).toBe(before)
    expect((await visitAs(session, '/logout', { method: 'POST', headers, body: '' })).status).toBe(403)
    expect(await sessions().read(session)).not.toBeNull()
  })

  it('ends no session for a cross-site logout sent as JSON', async () => {
    const session = await logIn()
    const json = { 'Content-Type': 'application/json', Origin: 'https://evil.example' }
    const { status, text } = await visitAs(session, '/logout', { method: 'POST', headers: json, body: '{}' })
    expect(status).toBe(403)
    expect(text).toContain('This form was sent from another site.')
    expect(
      (
        await visitAs(session, '/logout', {
          method: 'POST',
          headers: { ...json, 'Sec-Fetch-Site': 'cross-site' },
          body: '{}',
        })
      ).status,
    ).toBe(403)
    expect(await sessions().read(session)).not.toBeNull()
  })

  it('refuses an unsafe request that says nowhere where it came from (no fetch metadata, no Origin), whatever its body type', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'application/json']) {
      const { status } = await visit('/_market', {
        method: 'POST',
        headers: { 'Content-Type': type },
        body: 'market=it-it',
      })
      expect(status, type).toBe(403)
    }
  })

  it("refuses a foreign Origin even beside a same-origin Sec-Fetch-Site, and lets the channel's own `Origin: null` through by its fetch metadata", async () => {
    const form = { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' }
    expect(
      (
        await visit('/_market', {
          method: 'POST',
          headers: { ...form, Origin: 'https://evil.example' },
          body: 'market=it-it',
        })
      ).status,
    ).toBe(403)
    expect(
      (await visit('/_market', { method: 'POST', headers: { ...form, Origin: 'null' }, body: 'market=it-it' })).status,
    ).toBe(303)
    expect(
      (
        await visit('/_market', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
          body: '{}',
        })
      ).status,
    ).not.toBe(403)
  })

  it("lets the same site's own forms through", async () => {
    const { status } = await visit('/_market', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin', Origin: ORIGIN },
      body: 'market=it-it',
    })
    expect(status).toBe(303)
  })

  it('lets the purge be called from anywhere, since it proves its caller with the bearer secret', async () => {
    const headers = { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://ops.example' }
    expect((await visit('/_purge?market=it-it', { method: 'POST', headers })).status).toBe(401)
    expect(
      (
        await visit('/_purge?market=it-it', {
          method: 'POST',
          headers: { ...headers, Authorization: 'Bearer test-purge-secret' },
        })
      ).status,
    ).toBe(200)
  })
})

describe('body limits', () => {
  const big = 'x'.repeat(DEFAULT_BODY_LIMIT + 1)
  const sameSite = {
    'Content-Type': 'application/x-www-form-urlencoded',
    'Sec-Fetch-Site': 'same-origin',
    Origin: ORIGIN,
  }

  it("refuse a body over 16 KiB on every unsafe route (the purge's too), or over its own larger limit, with 413 and the error page", async () => {
    for (const { route, method, path } of everyUnsafeRoute()) {
      const limit = LARGER_BODIES[route]
      const { status, text } = await visit(path, {
        method,
        headers: sameSite,
        body: `field=${limit ? 'x'.repeat(limit + 1) : big}`,
      })
      expect(status, route).toBe(413)
      expect(text, route).toContain('This form is too large.')
    }
  })

  it('let a route ask for more, and only that route', async () => {
    const site = new Hono()
    site.use(unsafeRequests())
    site.post('/upload', acceptBodiesUpTo(64 * 1024), async (c) => c.text(String((await c.req.text()).length)))
    site.post('/form', async (c) => c.text(String((await c.req.text()).length)))
    site.onError((error, c) => c.text(error.message, (error as { status?: 413 }).status ?? 500))
    const post = (path: string, body: string) =>
      site.request(`${ORIGIN}${path}`, { method: 'POST', headers: sameSite, body })
    expect((await post('/upload', 'x'.repeat(40 * 1024))).status).toBe(200)
    expect((await post('/upload', 'x'.repeat(65 * 1024))).status).toBe(413)
    expect((await post('/form', 'x'.repeat(40 * 1024))).status).toBe(413)
  })
})
