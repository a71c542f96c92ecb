// Every import of the Worker's programs, for tests/unit/package-boundaries.test.ts (which runs in workerd, without the
// files): per source file of src/, client/, contract/ and reference-api/, what each import and re-export names — a
// path from the repository's root for a relative specifier, the package's name otherwise.
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, posix, relative } from 'node:path'
import { root } from './local.mjs'

const FOLDERS = ['src', 'client', 'contract', 'reference-api']
const SOURCE = /\.(?:ts|tsx|mjs|js)$/
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g

/** The files of a folder, recursively, as paths from the repository's root. */
const filesOf = (folder) =>
  readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))

/** @returns {Record<string, string[]>} each file's imports: repository paths (relative ones resolved) or package names */
export function sourceImports() {
  return Object.fromEntries(
    FOLDERS.flatMap(filesOf).map((file) => {
      const text = readFileSync(join(root, file), 'utf8')
      const names = [...text.matchAll(SPECIFIER)].map(([, spec]) => (spec.startsWith('.') ? posix.normalize(posix.join(dirname(file), spec)) : spec))
      return [file, [...new Set(names)]]
    }),
  )
}
