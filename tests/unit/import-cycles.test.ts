import { describe, expect, it } from 'vitest'
import { importsOf, inside, sources as everySource } from '../fixtures/sources'

/** The Worker's and the browser's sources as text, by path from the project's root (`src/app.ts`). */
const sources: Record<string, string> = Object.fromEntries(
  [...everySource].filter(([path]) => inside(path, 'src', 'client') && !path.endsWith('.d.ts')),
)

/**
 * Each file's imports of other files among `files` that exist when it runs: `import type` and `export type` are
 * erased, every other one is kept.
 */
function importGraph(files: Record<string, string>): Map<string, string[]> {
  const paths = new Set(Object.keys(files))
  return new Map(
    Object.entries(files).map(([path, text]) => [
      path,
      importsOf(path, text, paths)
        .filter((found) => !found.typeOnly)
        .flatMap((found) => (found.file === undefined ? [] : [found.file])),
    ]),
  )
}

/**
 * The import circles a depth-first walk meets (at least one in every group of files that reach each other), written
 * `a → b → a`.
 */
function importCircles(graph: Map<string, string[]>): string[] {
  const circles: string[] = []
  const done = new Set<string>()
  const onPath: string[] = []
  const visit = (file: string) => {
    onPath.push(file)
    for (const target of graph.get(file) ?? []) {
      const at = onPath.indexOf(target)
      if (at >= 0) circles.push([...onPath.slice(at), target].join(' → '))
      else if (!done.has(target)) visit(target)
    }
    onPath.pop()
    done.add(file)
  }
  for (const file of [...graph.keys()].sort()) if (!done.has(file)) visit(file)
  return circles
}

describe('the import graph of src/ and client/', () => {
  it('reads every module and its imports', () => {
    const graph = importGraph(sources)
    expect(graph.size).toBeGreaterThan(200)
    expect(graph.get('src/index.ts')).toContain('src/app.ts')
    expect(graph.get('client/entry.ts')).toContain('client/islands/gallery-viewer.tsx')
  })

  it('has no import circle', () => {
    expect(importCircles(importGraph(sources))).toEqual([])
  })
})

describe('what the page cache needs from its render', () => {
  it("is carried by the render's own request and read once, by requestContext, into c.var.pageCacheRender", () => {
    const graph = importGraph(sources)
    const readers = [...graph].filter(([, targets]) => targets.includes('src/page-cache/render-request.ts'))
    expect(readers.map(([file]) => file).sort()).toEqual(['src/page-cache/page-cache.ts', 'src/request-context.ts'])
  })

  it('travels in no module-level map keyed by a request', () => {
    const channels = Object.entries(sources).filter(([, text]) => /new WeakMap<\s*Request\b/.test(text))
    expect(channels.map(([file]) => file)).toEqual([])
  })
})

describe('the circle finder', () => {
  it('names the files of a circle, whatever the kind of import that closes it, and not a type-only one', () => {
    const graph = importGraph({
      'src/a.tsx': "import { B } from './b'\nimport type { D } from './d'",
      'src/b/index.ts': "export { C } from '../c'",
      'src/c.ts': "export const C = () => import('./a')",
      'src/d.ts': "import { B } from './b/index'\nexport type D = 1",
    })
    expect(importCircles(graph)).toEqual(['src/a.tsx → src/b/index.ts → src/c.ts → src/a.tsx'])
  })
})
