/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest'

/**
 * The reference API apart (docs/decisions/032): the site (src/, client/) reaches it only through the upstream client,
 * never by an import; it imports only the shared contract (contract/) and packages; the contract imports neither.
 * worker.ts, the composition root, is the one file that sees both. The sources are read by Vite as the test is
 * bundled (workerd has no file system of the project).
 */
const sources = Object.entries(
  import.meta.glob<string>(['/src/**/*.{ts,tsx}', '/client/**/*.{ts,tsx}', '/contract/**/*.ts', '/reference-api/**/*.ts', '!**/*.d.ts'], {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
).map(([path, text]) => [path.slice(1), text] as const)

/** Every import and re-export of a file, type-only ones too: a path from the root for a relative one, else the package. */
const importsOf = (file: string, text: string): string[] =>
  [...text.matchAll(/(?:\bfrom\s*|^\s*import\s*|\bimport\s*\(\s*)['"]([^'"]+)['"]/gm)].map(([, specifier]) => {
    if (!specifier!.startsWith('.')) return specifier!
    const parts = file.split('/').slice(0, -1)
    for (const part of specifier!.split('/')) {
      if (part === '..') parts.pop()
      else if (part !== '.') parts.push(part)
    }
    return parts.join('/')
  })

const imports = sources.map(([file, text]) => [file, importsOf(file, text)] as const)
const inside = (name: string, ...folders: string[]) => folders.some((folder) => name === folder || name.startsWith(`${folder}/`))
/** A path of this repository, as against a package's name. */
const isPath = (name: string) => inside(name, 'src', 'client', 'contract', 'reference-api', 'tests', 'scripts', 'worker', 'worker.ts')

/** Every import of the files under `folder` that `allowed` refuses, as `file → import`. */
const crossings = (folder: string, allowed: (name: string) => boolean) =>
  imports
    .filter(([file]) => inside(file, folder))
    .flatMap(([file, names]) => names.filter((name) => !allowed(name)).map((name) => `${file} → ${name}`))

describe('the reference API apart from the site', () => {
  it('reads the imports of every program', () => {
    for (const folder of ['src', 'client', 'contract', 'reference-api']) expect(imports.some(([file]) => inside(file, folder)), folder).toBe(true)
    expect(imports.find(([file]) => file === 'reference-api/index.ts')?.[1]).toContain('reference-api/resources/account')
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
