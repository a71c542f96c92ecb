import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SESSION_COOKIE } from '../../src/auth/session-cookie'
import { cookieHeader, DEMO, formPost, logIn, nextClient } from '../fixtures/session'
import { textOf, visit } from '../fixtures/worker'

afterEach(() => vi.restoreAllMocks())

const MAINTENANCE = 'This page its under maintenance, please check again later.'

/** Every log line written meanwhile, parsed. */
function logLines() {
  const lines: string[] = []
  for (const level of ['log', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line)))
  }
  return () => lines.map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('without SESSION_SECRET', () => {
  it.each([
    ['unset', undefined],
    ['empty', ''],
  ])('answers a login with 503, sets no cookie and stores no session (%s)', async (_, secret) => {
    const lines = logLines()
    const sessionsBefore = (await env.SESSIONS.list()).keys.length
    const { status, text, headers } = await visit('/login', formPost(DEMO, { 'CF-Connecting-IP': nextClient() }), {
      SESSION_SECRET: secret,
    })
    expect(status).toBe(503)
    expect(textOf(text)).toContain(MAINTENANCE)
    expect(headers.get('Set-Cookie') ?? '').not.toContain(SESSION_COOKIE)
    expect((await env.SESSIONS.list()).keys.length).toBe(sessionsBefore)
    expect(lines()).toContainEqual({ level: 'error', event: 'session_secret_missing' })
    expect(lines()).toContainEqual(expect.objectContaining({ event: 'request', path: '/login', status: 503 }))
  })

  it('treats a visitor holding a session cookie as anonymous, never with a 500; with the secret, the session is back', async () => {
    const id = await logIn()
    const asHolder = (path: string, bindings: Partial<Cloudflare.Env> = { SESSION_SECRET: undefined }) =>
      visit(path, { headers: cookieHeader(id) }, bindings)
    expect((await asHolder('/it-it')).status).toBe(200)
    const account = await asHolder('/it-it/my-account')
    expect(account.status).toBe(302)
    expect(account.headers.get('Location')).toBe('/login?redirect=%2Fit-it%2Fmy-account')
    expect((await asHolder('/it-it/my-account', {})).status).toBe(200)
  })
})

describe('without PURGE_SECRET', () => {
  const purge = (secret: string | undefined, bearer: string) =>
    visit('/_purge', { method: 'POST', headers: { Authorization: `Bearer ${bearer}` } }, { PURGE_SECRET: secret })

  it.each([
    ['unset', undefined],
    ['empty', ''],
  ])('answers POST /_purge with 503 whatever the bearer, and purges nothing (%s)', async (_, secret) => {
    expect((await visit('/it-it')).status).toBe(200)
    const cached = (await env.CACHE.list()).keys.length
    expect(cached).toBeGreaterThan(0)
    for (const bearer of ['test-purge-secret', '', 'undefined', 'anything']) {
      const { status, text } = await purge(secret, bearer)
      expect(status, bearer).toBe(503)
      expect(JSON.parse(text), bearer).toEqual({ error: 'purging is not configured (PURGE_SECRET)' })
    }
    expect((await env.CACHE.list()).keys.length).toBe(cached)
  })
})
