import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../src/auth/session-cookie'
import { DEMO, formPost, logIn, nextClient, visitAs } from '../fixtures/session'
import { textOf, visit } from '../fixtures/worker'

const LIMIT = 16 * 1024
const TOO_LARGE = 'This form is too large.'

/** A same-origin form post whose urlencoded body is exactly `size` bytes: the fields, then padding. */
function postOfSize(fields: Record<string, string>, size: number, headers: Record<string, string> = {}): RequestInit {
  const init = formPost(fields, headers)
  const body = `${init.body as string}&pad=`
  expect(size).toBeGreaterThan(body.length)
  return { ...init, body: body + 'x'.repeat(size - body.length) }
}

/** The same body sent as a stream, without a length: the limit counts the bytes as they come. */
function streamed(init: RequestInit): RequestInit {
  const bytes = new TextEncoder().encode(init.body as string)
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 4096) controller.enqueue(bytes.slice(i, i + 4096))
      controller.close()
    },
  })
  return { ...init, body, duplex: 'half' } as RequestInit
}

/** The error page of a refused body: 413, HTML, the message, nothing remembered. */
function expectTooLarge(answer: { status: number; text: string; headers: Headers }, what: string) {
  expect(answer.status, what).toBe(413)
  expect(answer.headers.get('Content-Type'), what).toMatch(/^text\/html/)
  expect(textOf(answer.text), what).toContain(TOO_LARGE)
  expect(answer.headers.getSetCookie(), what).toEqual([])
}

const outboxCount = () => env.DB.prepare('SELECT COUNT(*) AS n FROM outbox').first<number>('n')

describe('form bodies are limited to 16 KiB', () => {
  it('answers 413 with the error page to a login over 16 KiB, and logs nobody in', async () => {
    const sessionsBefore = (await env.SESSIONS.list()).keys.length
    for (const [what, init] of [
      ['with a length', postOfSize(DEMO, LIMIT + 1, { 'CF-Connecting-IP': nextClient() })],
      ['streamed', streamed(postOfSize(DEMO, LIMIT + 1, { 'CF-Connecting-IP': nextClient() }))],
    ] as const) {
      const answer = await visit('/login', init)
      expectTooLarge(answer, what)
      expect(answer.headers.get('Set-Cookie') ?? '', what).not.toContain(SESSION_COOKIE)
    }
    expect((await env.SESSIONS.list()).keys.length).toBe(sessionsBefore)
    // The same login at exactly 16 KiB goes through.
    const atLimit = await visit('/login', postOfSize(DEMO, LIMIT, { 'CF-Connecting-IP': nextClient() }))
    expect(atLimit.status).toBe(303)
    expect(atLimit.headers.get('Set-Cookie')).toContain(`${SESSION_COOKIE}=`)
  })

  it('answers 413 to a market pick over 16 KiB, and remembers no market', async () => {
    for (const [what, init] of [
      ['with a length', postOfSize({ market: 'ch-fr' }, LIMIT + 1)],
      ['streamed', streamed(postOfSize({ market: 'ch-fr' }, LIMIT + 1))],
    ] as const) {
      expectTooLarge(await visit('/_market', init), what)
    }
    const atLimit = await visit('/_market', postOfSize({ market: 'ch-fr' }, LIMIT))
    expect(atLimit.status).toBe(303)
    expect(atLimit.headers.get('Set-Cookie')).toMatch(/^CountryLocale=ch-fr;/)
  })

  it('answers 413 to a forgot-password post over 16 KiB, and mails nothing', async () => {
    const before = await outboxCount()
    const init = postOfSize({ forgot_email: DEMO.email }, LIMIT + 1, {
      Cookie: 'CountryLocale=it-it',
      'CF-Connecting-IP': nextClient(),
    })
    expectTooLarge(await visit('/login/forgot', init), 'forgot')
    expect(await outboxCount()).toBe(before)
  })

  it('answers 413 to an account form over 16 KiB, and stores nothing', async () => {
    const session = await logIn()
    const count = () =>
      env.DB.prepare("SELECT COUNT(*) AS n FROM addresses WHERE label = 'Oversized'").first<number>('n')
    const address = {
      label: 'Oversized',
      first_name: 'Giulia',
      last_name: 'Rossi',
      line1: 'Via dei Mille 5',
      postal_code: '24020',
      city: 'Gorle',
      country_code: 'IT',
    }
    const answer = await visitAs(session, '/it-it/my-account/addresses', postOfSize(address, LIMIT + 1))
    expect(answer.status).toBe(413)
    expect(textOf(answer.text)).toContain(TOO_LARGE)
    expect(await count()).toBe(0)
    // The visitor is still logged in, and the same form within the limit is stored.
    expect((await visitAs(session, '/it-it/my-account/addresses', postOfSize(address, LIMIT))).status).toBe(303)
    expect(await count()).toBe(1)
  })
})
