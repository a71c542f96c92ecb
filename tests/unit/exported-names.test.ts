/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest'

/**
 * Names that mean one thing, and no export nobody reads. The sources are read as text (Vite's `import.meta.glob`):
 * each module's exported names, and every named import, re-export or namespace import of src/, client/, tests/,
 * scripts/ and the configuration files, resolved to the module it names.
 */

/** A path relative to this folder (as Vite names a globbed file) from the project's root. */
function fromRoot(from: string, relative: string): string {
  const parts = from.split('/').slice(0, -1)
  for (const part of relative.split('/')) {
    if (part === '..') parts.pop()
    else if (part !== '.') parts.push(part)
  }
  return parts.join('/')
}

const read = (files: Record<string, unknown>) => new Map(Object.entries(files).map(([path, text]) => [fromRoot('tests/unit/this', path), text as string]))

/** Every module that may export or import: the Worker, the client, the tests, the scripts, the configurations. */
const sources = read({
  ...import.meta.glob(['../../src/**/*.{ts,tsx}', '../../client/**/*.{ts,tsx}', '../../contract/**/*.ts'], { query: '?raw', import: 'default', eager: true }),
  ...import.meta.glob(['../../tests/**/*.{ts,tsx}', '../../scripts/**/*.{ts,mjs}', '../../*.ts'], {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
})

/** The site and the contract it reads (the reference API is a program of its own: docs/decisions/032). */
const isSiteModule = (path: string) => (path.startsWith('src/') || path.startsWith('contract/')) && !path.endsWith('.d.ts')
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
      const name = item.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()
      if (name) names.push(name)
    }
  return names
}

/** The module a specifier names from a file, when it is one of ours (`./x`, `../y/z`, with or without extension). */
function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null
  const base = fromRoot(from, specifier).replace(/\.(m?js|tsx?)$/, '')
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}.mjs`, `${base}/index.ts`, `${base}/index.tsx`])
    if (sources.has(candidate)) return candidate
  return null
}

/** What each module is asked for: the names imported or re-exported from it, or `*` (a namespace or dynamic import). */
function importedNames(): Map<string, Set<string>> {
  const wanted = new Map<string, Set<string>>()
  const want = (module: string | null, name: string) => {
    if (!module) return
    if (!wanted.has(module)) wanted.set(module, new Set())
    wanted.get(module)?.add(name)
  }
  for (const [path, text] of sources) {
    for (const [, list, specifier] of text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g))
      for (const item of (list as string).split(',')) {
        const name = item.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]
        if (name) want(resolve(path, specifier as string), name)
      }
    for (const [, specifier] of text.matchAll(/(?:import|export)\s+(?:type\s+)?\*\s*(?:as\s+[\w$]+\s*)?from\s*['"]([^'"]+)['"]/g))
      want(resolve(path, specifier as string), '*')
    for (const [, specifier] of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) want(resolve(path, specifier as string), '*')
  }
  return wanted
}

/** Whether a module uses a name it exports besides declaring it (a page's component its handler renders, say). */
const usedAtHome = (text: string, name: string) => (text.match(new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'))?.length ?? 0) > 1

describe('exported names', () => {
  it('reads the sources', () => {
    expect(sources.has('src/app.ts')).toBe(true)
    expect(sources.has('tests/fixtures/worker.ts')).toBe(true)
    expect(exportedNames('export const a = 1\nexport async function b() {}\nexport type C = 1\nexport { d, e as f }')).toEqual(['a', 'b', 'C', 'd', 'f'])
  })

  it('gives each exported name of the site and its contract one module (src/, contract/)', () => {
    const modulesOf = new Map<string, string[]>()
    for (const [path, text] of sources)
      if (isSiteModule(path)) for (const name of new Set(exportedNames(text))) modulesOf.set(name, [...(modulesOf.get(name) ?? []), path])
    const twice = [...modulesOf].filter(([name, modules]) => modules.length > 1).map(([name, modules]) => `${name}: ${modules.join(', ')}`)
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
