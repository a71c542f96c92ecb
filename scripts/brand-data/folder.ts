import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

/**
 * A folder of the brand's data files as the loader takes them: every `.json` file's path within the folder (with `/`)
 * → its text.
 *
 * @example
 * readBrandData(brandFolder('tests/fixtures/brand-data'))
 */
export function brandFolder(folder: string): Record<string, string> {
  const files: Record<string, string> = {}
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue
    const path = join(entry.parentPath, entry.name)
    files[relative(folder, path).split(sep).join('/')] = readFileSync(path, 'utf8')
  }
  return files
}
