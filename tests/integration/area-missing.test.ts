import { beforeEach, describe, expect, inject, it, vi } from 'vitest'
import { MARKET_COOKIE } from '../../src/market/remembered-market'
import { ORIGINAL_PASSWORD } from '../fixtures/original-backend.mjs'
import { formPost, nextClient, sessionIdOf, visitAs } from '../fixtures/session'
import { clearCaches, visit } from '../fixtures/worker'

/** The stand-in of the brand's backend (the original's eight calls only), with the areas a deployment declares. */
const declaring = (UPSTREAM_AREAS: string) => ({ UPSTREAM_URL: inject('originalBackendUrl'), UPSTREAM_AREAS })

/** Logs Giulia (a plain Laravel user) in through the stand-in: her session's id. */
async function logInGiulia(bindings: Partial<Cloudflare.Env>): Promise<string> {
  const login = await visit(
    '/login',
    formPost(
      { email: 'customer@example.com', password: ORIGINAL_PASSWORD, market: 'it-it' },
      { 'CF-Connecting-IP': nextClient(), Cookie: `${MARKET_COOKIE}=it-it` },
    ),
    bindings,
  )
  expect(login.status).toBe(303)
  return sessionIdOf(login.headers) as string
}

/** The `upstream_area_missing` lines the Worker logs while `run` runs. */
async function areaMissingLines(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = []
  const spies = (['log', 'warn', 'error'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line))),
  )
  try {
    await run()
  } finally {
    for (const spy of spies) spy.mockRestore()
  }
  return lines
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.event === 'upstream_area_missing')
}

beforeEach(clearCaches)

describe('a declared area the backend lacks, found at first use (upstream_area_missing)', () => {
  it("logs the area once per isolate when a list the area always answers is 404, and the page is today's", async () => {
    const bindings = declaring('account')
    const session = await logInGiulia(bindings)
    const statuses: number[] = []
    const logged = await areaMissingLines(async () => {
      for (let n = 0; n < 2; n++) statuses.push((await visitAs(session, '/it-it/my-account', {}, bindings)).status)
    })
    expect(statuses).toEqual([200, 200])
    expect(logged).toEqual([
      { level: 'error', event: 'upstream_area_missing', area: 'account', call: expect.any(String), status: 404 },
    ])
    expect(logged[0]?.call).toMatch(/^GET api\/account\/(profile|bikes|addresses)$/)
  })

  it('logs nothing for an area the deployment does not declare, nor for a thing of a declared area that is not there', async () => {
    const undeclared = declaring('none')
    const session = await logInGiulia(undeclared)
    expect(
      await areaMissingLines(async () => {
        expect((await visitAs(session, '/it-it/my-account', {}, undeclared)).status).toBe(200)
      }),
    ).toEqual([])
    // `front/news/{slug}` answering 404 is an article that is not there, whatever the backend serves.
    const news = declaring('news')
    expect(
      await areaMissingLines(async () => {
        expect((await visit('/it-it/news/details/no-such-article', {}, news)).status).toBeGreaterThanOrEqual(400)
      }),
    ).toEqual([])
  })
})
