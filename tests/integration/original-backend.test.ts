import { beforeEach, describe, expect, inject, it } from 'vitest'
import { MARKET_COOKIE } from '../../src/market/remembered-market'
import { BRAND_TAGLINE, ORIGINAL_PASSWORD } from '../fixtures/original-backend.mjs'
import { cookieHeader, formPost, nextClient, sessionIdOf } from '../fixtures/session'
import { clearCaches, textOf, visit } from '../fixtures/worker'

/**
 * The Worker in workerd against the stand-in of the brand's own backend (tests/fixtures/original-backend.mjs) over
 * real HTTP: exactly the original's eight calls and shapes, nothing of the rest of the contract.
 */
const bindings = { UPSTREAM_URL: inject('originalBackendUrl') }
const onOriginal = (path: string, init: RequestInit = {}) => visit(path, init, bindings)

const MAINTENANCE = 'This page its under maintenance, please check again later.'
const GIULIA = { email: 'customer@example.com', password: ORIGINAL_PASSWORD }

const logInOn = (credentials: { email: string; password: string }, cookie = `${MARKET_COOKIE}=it-it`) =>
  onOriginal(
    '/login',
    formPost({ ...credentials, market: 'it-it' }, { 'CF-Connecting-IP': nextClient(), Cookie: cookie }),
  )

beforeEach(clearCaches)

describe("the site on the brand's own backend (the original's eight calls)", () => {
  it('serves the home of an LTR and an RTL market in their language, from site records without a currency', async () => {
    const italian = await onOriginal('/it-it')
    expect(italian.status).toBe(200)
    expect(italian.text).toContain('<html lang="it" dir="ltr"')
    const hebrew = await onOriginal('/il-he')
    expect(hebrew.status).toBe(200)
    expect(hebrew.text).toContain('<html lang="he" dir="rtl"')
  })

  it('lists the readable markets on the landing page and drops the record it cannot read, not the list', async () => {
    const { status, text } = await onOriginal('/')
    expect(status).toBe(200)
    expect(text).toContain('<a href="/it-it" hrefLang="it-IT" lang="it" data-market="it-it">Italia</a>')
    expect(text).toMatch(/<a href="\/il-he" [^>]*data-market="il-he">/)
    expect(text).not.toContain('bk-en')
    expect(text).not.toContain('nl-nl')
  })

  it('reads the absolute URLs of a site record as their paths', async () => {
    const { text } = await onOriginal('/it-it')
    expect(text).toContain('value="it-it"')
    expect(text).not.toContain('https://www.aurora-cycles.example/it-it"')
  })

  it('answers 503 maintenance for a market under maintenance, 404 (no-country) for none', async () => {
    expect((await onOriginal('/it-it')).status).toBe(200)
    const maintenance = await onOriginal('/nl-nl')
    expect(maintenance.status).toBe(503)
    expect(textOf(maintenance.text)).toContain(MAINTENANCE)
    const none = await onOriginal('/xx-en')
    expect(none.status).toBe(404)
    expect(none.text).toContain('This page could not be found (no-country).')
  })

  it("merges the brand's translation resource (flat keys) over the site's texts, the brand's keys winning", async () => {
    const { text } = await onOriginal('/it-it')
    expect(textOf(text)).toContain(BRAND_TAGLINE)
    // A key of the site's that the brand's resource gives in Italian.
    expect(textOf(text)).toContain('Vai al contenuto')
  })

  it("maps the brand's features through the one table: search switched off by its `status: 0`", async () => {
    expect((await onOriginal('/it-it/search/all?q=strada')).status).toBe(404)
    const home = (await onOriginal('/it-it')).text
    expect(home).not.toContain('action="/it-it/search/all"')
    expect(home).toContain('class="login-link icon-button"')
  })

  it('answers a wrong password (401 from the backend) with the login page and its message, keeping the market', async () => {
    const { status, text, headers } = await logInOn({ ...GIULIA, password: 'wrong-password-1' })
    expect(status).toBeGreaterThanOrEqual(400)
    expect(status).toBeLessThan(500)
    expect(text).toMatch(/<form [^>]*action="\/login" method="post">/)
    expect(text).toContain('<html lang="it"')
    expect(headers.getSetCookie().filter((line) => line.startsWith(`${MARKET_COOKIE}=`))).toEqual([])
    expect(sessionIdOf(headers)).toBeNull()
  })

  it('logs in a plain Laravel user (id, name, email) and greets them by the first part of the name', async () => {
    const login = await logInOn(GIULIA)
    expect(login.status).toBe(303)
    const id = sessionIdOf(login.headers)
    expect(id).toBeTruthy()
    const home = await onOriginal('/it-it', { headers: cookieHeader(id as string) })
    expect(home.status).toBe(200)
    expect(textOf(home.text)).toContain('Giulia')
    expect(textOf(home.text)).not.toContain('Giulia Rossi')
  })
})
