import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import { ORIGIN, visit } from '../fixtures/worker'

/** Calls the embedded API in-process, as the Worker does. */
async function call(path: string, init: RequestInit = {}) {
  const response = await api.fetch(
    new Request(`http://embedded.invalid/api/${path}`, init) as Parameters<typeof api.fetch>[0],
    env,
  )
  return { status: response.status, text: await response.text() }
}

const login = (body: unknown) =>
  call('auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })

describe("the embedded API's login and user calls", () => {
  it('logs the demo customer in and answers their user for the token', async () => {
    const { status, text } = await login({ email: 'Customer@Example.com', password: 'Demo-Rider-2026!' })
    expect(status).toBe(200)
    const { access_token, expires_at } = JSON.parse(text)
    expect(access_token).toMatch(/^[A-Za-z0-9_-]{40,}$/)
    expect(Date.parse(expires_at)).toBeGreaterThan(Date.now())
    const user = await call('auth/user', { headers: { Authorization: `Bearer ${access_token}` } })
    expect(user.status).toBe(200)
    expect(JSON.parse(user.text).data).toMatchObject({ email: 'customer@example.com', name: 'Giulia Rossi' })
    expect(user.text).not.toContain('password')
  })

  it('answers the same 422 for a wrong password and an unknown account', async () => {
    const wrong = await login({ email: 'customer@example.com', password: 'nope' })
    const unknown = await login({ email: 'nobody@example.com', password: 'nope' })
    expect(wrong.status).toBe(422)
    expect(unknown.status).toBe(422)
    expect(wrong.text).toBe(unknown.text)
  })

  it('refuses malformed bodies with a 422', async () => {
    for (const body of [null, {}, { email: 'x' }, { email: 'customer@example.com' }, 'text', [1, 2]]) {
      expect((await login(body)).status).toBe(422)
    }
    expect((await call('auth/login', { method: 'POST', body: '{not json' })).status).toBe(422)
  })

  it('answers 401 without a valid token', async () => {
    for (const header of [undefined, 'Bearer', 'Bearer short', `Bearer ${'x'.repeat(43)}`, 'Basic abc']) {
      const { status } = await call('auth/user', { headers: header ? { Authorization: header } : {} })
      expect(status, header).toBe(401)
    }
  })

  it('keeps login in-process: the public /api/ serves reads only', async () => {
    // Sent as the site's own page would (a post from elsewhere is refused before any route: 403).
    const { status, headers } = await visit('/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: ORIGIN, 'Sec-Fetch-Site': 'same-origin' },
      body: JSON.stringify({ email: 'customer@example.com', password: 'Demo-Rider-2026!' }),
    })
    expect(status).toBe(405)
    expect(headers.get('Allow')).toBe('GET, HEAD')
  })
})
