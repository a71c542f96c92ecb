import { describe, expect, it } from 'vitest'
import { importsOf, inside, sources as everySource } from '../fixtures/sources'

/**
 * Names that mean one thing, and no export nobody reads. The sources are read as text (tests/fixtures/sources.ts):
 * each module's exported names, and every named import, re-export or namespace import of src/, client/, tests/,
 * scripts/ and the configuration files, resolved to the module it names.
 */

/** Every module that may export or import, the reference API aside (a program of its own: docs/decisions/032). */
const sources = new Map([...everySource].filter(([path]) => !inside(path, 'reference-api')))

/** The site and the contract it reads (the reference API is a program of its own: docs/decisions/032). */
const isSiteModule = (path: string) =>
  (path.startsWith('src/') || path.startsWith('contract/')) && !path.endsWith('.d.ts')
const ENTRY_POINTS = new Set(['src/index.ts'])
/** The contract's schemas and types: a surface for any backend, read or not by this site. */
const isContract = (path: string) => path.startsWith('contract/')

/** The names a module exports itself (`export const|function|type|…`, `export { a, b as c }` without `from`). */
function exportedNames(text: string): string[] {
  const names: string[] = []
  for (const [, name] of text.matchAll(
    /^export\s+(?:declare\s+)?(?:async\s+)?(?:const|let|var|function\*?|class|type|interface|enum|abstract\s+class)\s+([A-Za-z_$][\w$]*)/gm,
  ))
    names.push(name as string)
  for (const [, list] of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}(?!\s*from)/gm))
    for (const item of (list as string).split(',')) {
      const name = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()
      if (name) names.push(name)
    }
  return names
}

/** What each module is asked for: the names imported or re-exported from it, or `*` (a namespace or dynamic import). */
function importedNames(): Map<string, Set<string>> {
  const wanted = new Map<string, Set<string>>()
  for (const [path, text] of sources)
    for (const { file, names } of importsOf(path, text, sources))
      if (file !== undefined) for (const name of names) wanted.set(file, (wanted.get(file) ?? new Set()).add(name))
  return wanted
}

/** Whether a module uses a name it exports besides declaring it (a page's component its handler renders, say). */
const usedAtHome = (text: string, name: string) =>
  (text.match(new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'))?.length ?? 0) > 1

describe('exported names', () => {
  it('reads the sources', () => {
    expect(sources.has('src/app.ts')).toBe(true)
    expect(sources.has('tests/fixtures/worker.ts')).toBe(true)
    expect(
      exportedNames('export const a = 1\nexport async function b() {}\nexport type C = 1\nexport { d, e as f }'),
    ).toEqual(['a', 'b', 'C', 'd', 'f'])
  })

  it('gives each exported name of the site and its contract one module (src/, contract/)', () => {
    const modulesOf = new Map<string, string[]>()
    for (const [path, text] of sources)
      if (isSiteModule(path))
        for (const name of new Set(exportedNames(text))) modulesOf.set(name, [...(modulesOf.get(name) ?? []), path])
    const twice = [...modulesOf]
      .filter(([_name, modules]) => modules.length > 1)
      .map(([name, modules]) => `${name}: ${modules.join(', ')}`)
    expect(twice).toEqual([])
  })

  it('exports nothing from src/ that no module imports nor its own uses (src/, client/, tests/, scripts/; entry points and the contract aside)', () => {
    const wanted = importedNames()
    const unread: string[] = []
    for (const [path, text] of sources) {
      if (!isSiteModule(path) || ENTRY_POINTS.has(path) || isContract(path)) continue
      const names = wanted.get(path)
      if (names?.has('*')) continue
      for (const name of exportedNames(text))
        if (!names?.has(name) && !usedAtHome(text, name)) unread.push(`${path}: ${name}`)
    }
    expect(unread).toEqual([])
  })
})
