import { env } from 'cloudflare:workers'
import { describe, expect, inject, it } from 'vitest'
import { api } from '../../reference-api'
import { AREAS } from '../../scripts/check-backend/areas'
import { checkBackend } from '../../scripts/check-backend/check'
import { declarationOf, deploymentVariables } from '../../scripts/check-backend/deployment'
import { reportText, summaryText } from '../../scripts/check-backend/report'
import { AREA_NAMES } from '../../src/upstream/areas'
import { demoStaff, forgetUsedCode, totpCode } from '../fixtures/console'
import { ORIGINAL_PASSWORD } from '../fixtures/original-backend.mjs'

const BASE = 'https://api.brand.test'
const CUSTOMER = { email: 'customer@example.com', password: 'Demo-Rider-2026!' }

/** The embedded reference API in-process, reached as a backend over HTTP would be, with `change` over its answers. */
const referenceApi =
  (change?: (path: string, answer: Response) => Response | Promise<Response>): typeof fetch =>
  async (input, init) => {
    const request = new Request(input, init)
    const answer = await api.fetch(request as Parameters<typeof api.fetch>[0], env)
    return change ? change(new URL(request.url).pathname.replace(/^\/api\//, ''), answer) : answer
  }

/** The demo editor's staff token, signed in through the API. */
async function editorToken(): Promise<string> {
  await forgetUsedCode('editor')
  const member = demoStaff('editor')
  const answer = await referenceApi()(`${BASE}/api/staff/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ email: member.email, password: member.password, code: await totpCode(member.totp_secret) }),
  })
  expect(answer.status).toBe(200)
  return ((await answer.json()) as { access_token: string }).access_token
}

describe('npm run check:backend', () => {
  it('finds every area of the reference API conforming, every read made, and passes', async () => {
    const report = await checkBackend({
      base: BASE,
      fetch: referenceApi(),
      country: 'it',
      credentials: CUSTOMER,
      staffToken: await editorToken(),
    })
    expect(report.areas.map((area) => area.id)).toEqual(AREAS.map((area) => area.id))
    for (const area of report.areas)
      expect({ area: area.id, outcome: area.outcome, note: area.note, calls: area.calls }).toMatchObject({
        outcome: 'conforms',
        note: undefined,
      })
    const calls = report.areas.flatMap((area) => area.calls.map((call) => call.call))
    for (const call of [
      'GET api/sites',
      'GET api/sites/it',
      'GET api/country-wise-locale-content/it/it',
      'GET api/get-features',
      'GET api/front/menu/products?type_id=1',
      'POST api/auth/login',
      'GET api/auth/user',
      'GET api/front/page-index',
      'GET api/account/profile',
      'GET api/staff/outbox?page=1&per_page=10',
    ])
      expect(calls).toContain(call)
    expect(calls.some((call) => call.startsWith('GET api/front/products/'))).toBe(true)
    expect(calls.some((call) => call.startsWith('GET api/account/orders/'))).toBe(true)
    expect(report.passed).toBe(true)
    expect(reportText(report)).toContain('PASS: every required area conforms')
  })

  it("reads the brand's own backend as the site does: the original's eight calls conform but its one bad site record, named", async () => {
    const report = await checkBackend({
      base: inject('originalBackendUrl'),
      fetch: (input, init) => fetch(input, init),
      country: 'it',
      credentials: { email: CUSTOMER.email, password: ORIGINAL_PASSWORD },
    })
    const outcome = (id: string) => report.areas.find((area) => area.id === id)
    for (const area of report.areas.filter((each) => each.required && each.id !== 'sites'))
      expect({ area: area.id, outcome: area.outcome, calls: area.calls }).toMatchObject({ outcome: 'conforms' })
    const sites = outcome('sites')
    expect(sites?.outcome).toBe('fails')
    expect(sites?.calls.find((call) => call.outcome === 'fails')?.detail).toMatch(/^data\[\d+\]\.slug: /)
    expect(outcome('catalogue')?.outcome).toBe('missing')
    expect(report.passed).toBe(false)
  })

  it('names the area, the call and the first mismatching field of an answer with a field of the wrong type', async () => {
    const broken = referenceApi(async (path, answer) => {
      if (!path.startsWith('front/products/')) return answer
      const body = (await answer.json()) as { data: Record<string, unknown> }
      return Response.json({ data: { ...body.data, name: 42 } })
    })
    const report = await checkBackend({ base: BASE, fetch: broken, country: 'it' })
    const catalogue = report.areas.find((area) => area.id === 'catalogue')
    expect(catalogue?.outcome).toBe('fails')
    const failed = catalogue?.calls.find((call) => call.outcome === 'fails')
    expect(failed?.call).toMatch(/^GET api\/front\/products\/[a-z0-9-]+$/)
    expect(failed?.detail).toMatch(/^data\.name: /)
    expect(reportText(report)).toMatch(
      /XX Catalogue: fails \(2\/3 calls\)\n {5}GET api\/front\/products\/\S+: data\.name: /,
    )
    // The catalogue is not one of the original's calls: the verdict still passes.
    expect(report.passed).toBe(true)
  })

  it('fails when a required area is missing, and says which', async () => {
    const noFeatures = referenceApi((path, answer) =>
      path === 'get-features' ? Response.json({ message: 'Not Found' }, { status: 404 }) : answer,
    )
    const report = await checkBackend({ base: BASE, fetch: noFeatures, country: 'it' })
    expect(report.areas.find((area) => area.id === 'features')?.outcome).toBe('missing')
    expect(report.passed).toBe(false)
    const text = reportText(report)
    expect(text).toContain('-- Features [required]: missing (GET api/get-features answered 404)')
    expect(text).toContain('FAIL: required area(s) not conforming: Features')
  })

  it('reports a backend that lacks an optional area as missing and still passes', async () => {
    const noStaff = referenceApi((path, answer) =>
      path.startsWith('staff/') ? new Response('', { status: 405 }) : answer,
    )
    const report = await checkBackend({ base: BASE, fetch: noStaff, country: 'it' })
    expect(report.areas.find((area) => area.id === 'staff')?.outcome).toBe('missing')
    expect(report.passed).toBe(true)
  })
})

describe('npm run check:backend with the areas a deployment declares (--areas, UPSTREAM_AREAS)', () => {
  it('fails when a declared area does not conform, and names it', async () => {
    const noNews = referenceApi((path, answer) =>
      path.startsWith('front/news') ? Response.json({ message: 'Not Found' }, { status: 404 }) : answer,
    )
    const report = await checkBackend({ base: BASE, fetch: noNews, country: 'it', declared: new Set(['news']) })
    expect(report.areas.find((area) => area.id === 'news')).toMatchObject({ declared: true, outcome: 'missing' })
    expect(report.passed).toBe(false)
    expect(reportText(report)).toContain(
      '-- News [declared]: missing (GET api/front/news?page=1&per_page=3 answered 404)',
    )
    expect(reportText(report)).toContain('FAIL: declared area(s) not conforming: News')
    expect(summaryText(report)).toBe(
      [
        'FAIL: declared area(s) not conforming: News',
        '  declared area news: missing (GET api/front/news?page=1&per_page=3: answered 404)',
        '  could be declared in UPSTREAM_AREAS: content, catalogue, dealers, search, account, cart-checkout, forms, whistleblower, newsletter, staff',
      ].join('\n'),
    )
  })

  it('passes when every declared area conforms, and hints at the conforming areas left undeclared', async () => {
    const report = await checkBackend({
      base: BASE,
      fetch: referenceApi(),
      country: 'it',
      declared: new Set(['catalogue']),
    })
    expect(report.passed).toBe(true)
    const text = reportText(report)
    expect(text).toContain('ok Catalogue [declared]: conforms')
    expect(text).toMatch(/ok News: conforms \(\d+\/\d+ calls\)\n {5}could be declared: add news to UPSTREAM_AREAS/)
    expect(text).toContain('PASS: every required and declared area conforms')
    // Without a declaration nothing is hinted: the optional areas are only reported.
    expect(reportText(await checkBackend({ base: BASE, fetch: referenceApi(), country: 'it' }))).not.toContain(
      'could be declared',
    )
  })

  it("checks every area as declared when UPSTREAM_AREAS is empty (the Worker's reading): a missing one fails", async () => {
    const noStaff = referenceApi((path, answer) =>
      path.startsWith('staff/') ? new Response('', { status: 405 }) : answer,
    )
    const { declared } = declarationOf(undefined, deploymentVariables({}, 'UPSTREAM_AREAS=""\n'))
    expect(declared).toBe('all')
    const report = await checkBackend({ base: BASE, fetch: noStaff, country: 'it', declared })
    expect(report.passed).toBe(false)
    expect(reportText(report)).toContain('FAIL: declared area(s) not conforming: Staff console')
  })

  it('reads the declaration from --areas, else the environment, else .dev.vars, by the names of UPSTREAM_AREAS', () => {
    const devVars = 'UPSTREAM_URL=https://api.brand.example\nUPSTREAM_AREAS="content, news"\n'
    expect([...(declarationOf(undefined, deploymentVariables({}, devVars)).declared as Set<string>)]).toEqual([
      'content',
      'news',
    ])
    expect([
      ...(declarationOf(undefined, deploymentVariables({ UPSTREAM_AREAS: 'dealers' }, devVars))
        .declared as Set<string>),
    ]).toEqual(['dealers'])
    expect([
      ...(declarationOf('none', deploymentVariables({ UPSTREAM_AREAS: 'dealers' })).declared as Set<string>),
    ]).toEqual([])
    expect(declarationOf('news,pigeons', deploymentVariables({})).unknown).toEqual(['pigeons'])
    // The kit's optional areas are the Worker's areas, by the same names.
    expect(AREAS.filter((area) => !area.required).map((area) => area.id)).toEqual(AREA_NAMES)
  })
})

describe('npm run check:backend -- --embedded', () => {
  it('calls nothing but GET (the public /api/ serves reads alone), says what it left out, and passes', async () => {
    const methods: string[] = []
    const report = await checkBackend({
      base: BASE,
      fetch: (input, init) => {
        methods.push(init?.method ?? 'GET')
        return referenceApi()(input, init)
      },
      credentials: CUSTOMER,
      readsOnly: true,
    })
    expect(new Set(methods)).toEqual(new Set(['GET']))
    expect(report.areas.find((area) => area.id === 'login')?.note).toContain(
      'not called (reads only): POST api/auth/login',
    )
    expect(report.areas.find((area) => area.id === 'newsletter')?.outcome).toBe('unchecked')
    expect(report.passed).toBe(true)
  })
})
