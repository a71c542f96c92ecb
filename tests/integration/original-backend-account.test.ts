import { beforeEach, describe, expect, inject, it } from 'vitest'
import { MARKET_COOKIE } from '../../src/market/remembered-market'
import { ORIGINAL_PASSWORD } from '../fixtures/original-backend.mjs'
import { cookieHeader, formPost, nextClient, sessionIdOf } from '../fixtures/session'
import { clearCaches, textOf, visit } from '../fixtures/worker'

/**
 * The account overview of a plain Laravel user (`id`, `name`, `email`, timestamps) on the stand-in of the brand's own
 * backend over real HTTP (tests/fixtures/original-backend.mjs), which serves none of the account's lists.
 */
const bindings = { UPSTREAM_URL: inject('originalBackendUrl') }
const onOriginal = (path: string, init: RequestInit = {}) => visit(path, init, bindings)

/** Logs Giulia (a plain Laravel user, "Giulia Rossi") in through the stand-in: her session's id. */
async function logInGiulia(): Promise<string> {
  const login = await onOriginal(
    '/login',
    formPost(
      { email: 'customer@example.com', password: ORIGINAL_PASSWORD, market: 'it-it' },
      { 'CF-Connecting-IP': nextClient(), Cookie: `${MARKET_COOKIE}=it-it` },
    ),
  )
  expect(login.status).toBe(303)
  const id = sessionIdOf(login.headers)
  expect(id).toBeTruthy()
  return id as string
}

beforeEach(clearCaches)

describe("the account overview on the brand's own backend (the user alone)", () => {
  it('greets a plain Laravel user by the split name, shows their email, and says which lists are not available here', async () => {
    const { status, text } = await onOriginal('/it-it/my-account', { headers: cookieHeader(await logInGiulia()) })
    expect(status).toBe(200)
    expect(text).toContain('<html lang="it"')
    const page = textOf(text)
    expect(page).toContain('Salve, Giulia')
    expect(page).toContain('Giulia Rossi')
    expect(page).toContain('customer@example.com')
    // Orders, bikes and addresses: none served by the backend, each said so in Italian (not an empty list).
    expect(page.split('Non disponibile qui.').length - 1).toBe(3)
    expect(page).not.toContain('Non ha ancora effettuato ordini.')
    expect(page).not.toContain('Non ha ancora registrato una bici.')
    // Laravel's `email_verified_at`: the address is confirmed, no banner asking for a call the backend lacks.
    expect(text).not.toContain('action="/it-it/my-account/confirm-email"')
  })

  it("links none of the account's pages whose data the backend lacks, but the overview", async () => {
    const { text } = await onOriginal('/it-it/my-account', { headers: cookieHeader(await logInGiulia()) })
    expect(text).toContain('href="/it-it/my-account"')
    for (const page of ['orders', 'bikes', 'addresses'])
      expect(text).not.toMatch(new RegExp(`href="/it-it/my-account/${page}[/#"]`))
  })
})
