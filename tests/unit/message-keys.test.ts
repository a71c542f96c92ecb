import { describe, expect, it } from 'vitest'
import english from '../../src/i18n/en.json'
import { MESSAGE_OWNERS } from '../fixtures/message-owners'
import { inside, sources } from '../fixtures/sources'

type Messages = { [key: string]: string | Messages }
const keysOf = (messages: Messages, prefix = ''): string[] =>
  Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'string' ? [prefix + key] : keysOf(value, `${prefix}${key}.`),
  )
const KEYS = new Set(keysOf(english))
const GROUPS = new Set([...KEYS].map((key) => `${key.split('.')[0]}.`))

/** The site's own code: the Worker, the client, the contract and the reference API (not the tests). */
const code = [...sources].filter(([path]) => inside(path, 'src', 'client', 'contract', 'reference-api'))

/**
 * The messages a source names: a quoted key or the fixed start of a built one (`` `checkout.error.${code}` ``), and
 * a validation code (`ticked('consent')` names `validation.consent`).
 */
function messagesNamed(text: string): string[] {
  const quoted = [...text.matchAll(/['"`]([a-z_]+\.[a-z_.-]*)(['"`]|\$\{)/g)].flatMap(([, name = '', end]) =>
    (end === '${' ? [...KEYS].some((key) => key.startsWith(name)) : KEYS.has(name)) ? [name] : [],
  )
  const codes = [...text.matchAll(/ticked\(\s*['"]([a-z_]+)['"]/g)].map((match) => `validation.${match[1]}`)
  return [...quoted, ...codes]
}

/** Where a source names a message outside the flow that owns it. */
function straysIn(path: string, text: string): string[] {
  return messagesNamed(text).flatMap((name) =>
    Object.entries(MESSAGE_OWNERS)
      .filter(([owned, owners]) => belongsTo(name, owned) && !inside(path, ...owners))
      .map(() => `${name} in ${path}`),
  )
}

const belongsTo = (name: string, owned: string) => (owned.endsWith('.') ? name.startsWith(owned) : name === owned)

describe('messages used only where they are true', () => {
  it('names only keys and groups that exist, and owners that exist', () => {
    for (const [owned, owners] of Object.entries(MESSAGE_OWNERS)) {
      expect(owned.endsWith('.') ? GROUPS.has(owned) : KEYS.has(owned), owned).toBe(true)
      for (const owner of owners) {
        expect(
          code.some(([path]) => inside(path, owner)),
          `${owned}: ${owner}`,
        ).toBe(true)
      }
    }
  })

  it("uses each message of a flow only in that flow's modules (the newsletter's consent is not the lead forms')", () => {
    expect(code.flatMap(([path, text]) => straysIn(path, text))).toEqual([])
  })

  it("finds a stray use: the newsletter's fields with the lead forms' consent code, a cart page with the banner's title", () => {
    expect(straysIn('contract/newsletter-schemas.ts', "z.object({ consent: ticked('consent') })")).toEqual([
      'validation.consent in contract/newsletter-schemas.ts',
    ])
    expect(straysIn('src/pages/cart.tsx', "<h2>{t('consent.title')}</h2>")).toEqual([
      'consent.title in src/pages/cart.tsx',
    ])
    expect(straysIn('src/payments/stripe-provider.ts', "'checkout.session.completed': paid")).toEqual([])
  })
})
