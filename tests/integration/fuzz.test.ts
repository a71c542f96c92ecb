import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formPost, logIn, nextClient, visitAs } from '../fixtures/session'
import { visit } from '../fixtures/worker'
import { headerValue, queryOf } from '../fixtures/fuzz-inputs'

const MAINTENANCE = 'This page its under maintenance, please check again later.'

/** The first segment of a path as the Worker sees it: normalised (`/../x` is `/x`) and decoded where it can be. */
function firstSegment(path: string): string {
  const segment = new URL(path, 'https://site.test').pathname.split('/')[1] ?? ''
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

const segment = fc.oneof(
  fc.constantFrom(
    'it-it',
    'nl-nl',
    'de-de',
    'il-he',
    'xx-yy',
    'it-xx',
    'api',
    '_health',
    'test-drive',
    'chi-siamo',
    '..',
    '%',
    '%ZZ',
    '%2F',
    'products',
    'type',
    'aurora-strada-9',
    'news',
    'details',
    'search',
    'all',
    'dealers',
    'rivenditori',
    'cicli-bergamasca',
  ),
  fc.webSegment(),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
)
const path = fc.array(segment, { minLength: 0, maxLength: 5 }).map((parts) => `/${parts.join('/')}`)
const query = queryOf(['q', 'page', 'near', 'lat', 'sales', 'type'])
const header = headerValue(60)

describe('bad input never produces a 5xx', () => {
  it('answers any path, query, cookie and Accept-Language below 500 (but maintenance)', async () => {
    await fc.assert(
      fc.asyncProperty(
        path,
        query,
        header,
        header,
        fc.constantFrom('GET', 'HEAD', 'POST'),
        async (p, q, cookie, language, method) => {
          const { status, text } = await visit(q ? `${p}?${q}` : p, {
            method,
            headers: { Cookie: `CountryLocale=${cookie}`, 'Accept-Language': language },
          })
          // The only 5xx a path may get is the maintenance page of the market under maintenance (nl-nl).
          if (status === 503 && firstSegment(p) === 'nl-nl') {
            if (method !== 'HEAD') expect(text).toContain(MAINTENANCE)
          } else expect(status, `${method} ${p}`).toBeLessThan(500)
        },
      ),
      { numRuns: 250 },
    )
  })

  it('answers malformed market picks and API parameters with a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), fc.string({ maxLength: 20 }), async (market, typeId) => {
        const pick = await visit('/_market', {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://site.test' },
          body: new URLSearchParams({ market }).toString(),
        })
        expect(pick.status).toBeLessThan(500)
        const menu = await visit(`/api/front/menu/products?type_id=${encodeURIComponent(typeId)}`)
        expect(menu.status).toBeLessThan(500)
      }),
      { numRuns: 100 },
    )
  })

  it('answers any session cookie below 500, as anonymous unless it is a live session', async () => {
    await fc.assert(
      fc.asyncProperty(header, fc.constantFrom('/it-it', '/login', '/it-it/my-account', '/'), async (cookie, p) => {
        const { status, text } = await visit(p, { headers: { Cookie: `__Host-AuthTkn=${cookie}` } })
        expect(status, p).toBeLessThan(500)
        expect(text).not.toContain('/my-account"')
      }),
      { numRuns: 100 },
    )
  })

  it('answers any login, forgot-password and account form with a 2xx, 3xx or 4xx, and changes nothing else', async () => {
    const giulia = await logIn()
    const lukasAddresses = await env.DB.prepare('SELECT * FROM addresses WHERE user_id = 2').all()
    const fields = fc.dictionary(
      fc.constantFrom(
        'email',
        'password',
        'redirect',
        'forgot_email',
        'label',
        'first_name',
        'last_name',
        'line1',
        'postal_code',
        'city',
        'country_code',
        'phone',
        'is_default',
        'serial_number',
        'product_id',
        'purchased_on',
        'dealer_name',
        'password_confirmation',
      ),
      fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.constantFrom('', 'IT', '24121', '2025-05-05', '9', 'on', '//evil.example', 'x'.repeat(300)),
      ),
    )
    const target = fc.constantFrom(
      '/login',
      '/login/forgot',
      '/it-it/my-account/addresses',
      '/it-it/my-account/addresses/3',
      '/it-it/my-account/addresses/abc/delete',
      '/it-it/my-account/addresses/1/default',
      '/it-it/my-account/bikes',
      '/it-it/update-password/not-a-token',
    )
    await fc.assert(
      fc.asyncProperty(target, fields, async (p, form) => {
        const init = formPost(form, { 'CF-Connecting-IP': nextClient() })
        const { status } = p.startsWith('/login') ? await visit(p, init) : await visitAs(giulia, p, init)
        expect(status, `${p} ${JSON.stringify(form)}`).toBeLessThan(500)
      }),
      { numRuns: 150 },
    )
    expect((await env.DB.prepare('SELECT * FROM addresses WHERE user_id = 2').all()).results).toEqual(
      lukasAddresses.results,
    )
  })
})
