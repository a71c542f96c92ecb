import { describe, expect, it } from 'vitest'
import { fromRoot, type Import, importsOf, inside, sources } from '../fixtures/sources'

/**
 * The reference API apart (docs/decisions/032): the site (src/, client/) reaches it only through the upstream client,
 * never by an import; it imports only the shared contract (contract/) and packages; the contract imports neither.
 * worker.ts, the composition root, is the one file that sees both.
 */

/** Where an import leads: the file for one of ours (the path it names when no file answers), else the package. */
const target = (file: string, { specifier, file: found }: Import) =>
  found ?? (specifier.startsWith('.') ? fromRoot(file, specifier) : specifier)

/** Every import and re-export of each program's files, type-only ones too. */
const imports = [...sources]
  .filter(([file]) => inside(file, 'src', 'client', 'contract', 'reference-api') && !file.endsWith('.d.ts'))
  .map(([file, text]) => [file, importsOf(file, text).map((found) => target(file, found))] as const)

/** A path of this repository, as against a package's name. */
const isPath = (name: string) =>
  inside(name, 'src', 'client', 'contract', 'reference-api', 'tests', 'scripts', 'worker', 'worker.ts')

/** Every import of the files under `folder` that `allowed` refuses, as `file → import`. */
const crossings = (folder: string, allowed: (name: string) => boolean) =>
  imports
    .filter(([file]) => inside(file, folder))
    .flatMap(([file, names]) => names.filter((name) => !allowed(name)).map((name) => `${file} → ${name}`))

describe('the reference API apart from the site', () => {
  it('reads the imports of every program', () => {
    for (const folder of ['src', 'client', 'contract', 'reference-api'])
      expect(
        imports.some(([file]) => inside(file, folder)),
        folder,
      ).toBe(true)
    expect(imports.find(([file]) => file === 'reference-api/index.ts')?.[1]).toContain(
      'reference-api/resources/account.ts',
    )
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
})
