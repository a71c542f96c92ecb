import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'

/**
 * The reference API apart (docs/decisions/032): the site (src/, client/) reaches it only through the upstream client,
 * never by an import; it imports only the shared contract (contract/) and packages; the contract imports neither.
 * worker.ts, the composition root, is the one file that sees both.
 */
const imports = Object.entries(env.TEST_SOURCE_IMPORTS)
/** A path of this repository (resolved from a relative specifier), as against a package's name. */
const isPath = (name: string) => inside(name, 'src', 'client', 'contract', 'reference-api', 'tests', 'scripts', 'worker', 'worker.ts') || name.startsWith('.')
const inside = (name: string, ...folders: string[]) => folders.some((folder) => name === folder || name.startsWith(`${folder}/`))

/**
 * Imports the settling of payments still makes across the line until it is the contract call
 * `POST api/payments/events` (issue 26, its payments part): each must go, and is then taken off this list.
 */
const UNTIL_PAYMENTS_ARE_EVENTS = [
  'src/payments/settle.ts → reference-api/order-paid',
  'reference-api/order-paid.ts → src/i18n/direction',
  'reference-api/order-paid.ts → src/i18n/formats',
]

/** Every import of the files under `folder` that `allowed` refuses, as `file → import`. */
const crossings = (folder: string, allowed: (name: string) => boolean) =>
  imports
    .filter(([file]) => inside(file, folder))
    .flatMap(([file, names]) => names.filter((name) => !allowed(name)).map((name) => `${file} → ${name}`))
    .filter((crossing) => !UNTIL_PAYMENTS_ARE_EVENTS.includes(crossing))

describe('the reference API apart from the site', () => {
  it('reads the imports of every program', () => {
    for (const folder of ['src', 'client', 'contract', 'reference-api']) expect(imports.some(([file]) => inside(file, folder))).toBe(true)
  })

  it('the site (src/, client/) imports nothing of reference-api/', () => {
    const away = (name: string) => !inside(name, 'reference-api')
    expect([...crossings('src', away), ...crossings('client', away)]).toEqual([])
  })

  it('reference-api/ imports only itself, contract/ and packages', () => {
    expect(crossings('reference-api', (name) => !isPath(name) || inside(name, 'reference-api', 'contract'))).toEqual([])
  })

  it('contract/ imports only itself and packages', () => {
    expect(crossings('contract', (name) => !isPath(name) || inside(name, 'contract'))).toEqual([])
  })

  it('lists no crossing that is gone (the payments part takes each off once it no longer imports it)', () => {
    const all = imports.flatMap(([file, names]) => names.map((name) => `${file} → ${name}`))
    expect(UNTIL_PAYMENTS_ARE_EVENTS.filter((crossing) => !all.includes(crossing))).toEqual([])
  })
})
