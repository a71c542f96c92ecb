// The brand typeface's files as the build ships them (docs/decisions/088-product-first-paint-bytes.md): each variable
// face of client/styles/fonts.css instanced to the weights the stylesheet asks for (BRAND_WEIGHTS) and cut to the
// characters of its `unicode-range`, from the npm package's own file, with harfbuzz in wasm (`subset-font`): no network.
// Inter's Latin file, which every Latin page preloads, goes from 47 to 32 KiB. Each result is kept under
// node_modules/.cache/brand-faces by the source's bytes and the options, so a build makes a face once.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import subsetFont from 'subset-font'

/**
 * The weights the brand's faces keep: the stylesheet asks for 400 to 800, and `bolder` (a `<strong>` in a heading at
 * 600 or more) for 900. fonts.css declares the same range on every face; tests/integration/brand-typeface.test.ts
 * fails if the stylesheet asks for a weight outside it.
 */
export const BRAND_WEIGHTS = { min: 400, max: 900 }

/** The characters of a CSS `unicode-range` value (`U+0000-00FF, U+0131`). */
export function rangeText(range) {
  let text = ''
  for (const [, from, to] of range.matchAll(/U\+([0-9A-F]+)(?:-([0-9A-F]+))?/gi)) {
    const last = Number.parseInt(to ?? from, 16)
    for (let code = Number.parseInt(from, 16); code <= last; code++) text += String.fromCodePoint(code)
  }
  return text
}

/**
 * An esbuild plugin that answers each `@fontsource-variable/…woff2` url of `fontsCss` with that file instanced and cut
 * to its face's range (same name, so the build's hashed name still starts with it).
 *
 * @param {{ root: string, fontsCss: string }} options the project's folder and the stylesheet that declares the faces
 * @returns {import('esbuild').Plugin}
 * @example
 * await build({ ..., plugins: [brandFaces({ root, fontsCss: 'client/styles/fonts.css' })] })
 */
export function brandFaces({ root, fontsCss }) {
  const ranges = new Map(
    [
      ...readFileSync(join(root, fontsCss), 'utf8').matchAll(
        /url\("(@fontsource-variable\/[^"]+)"\)[^;]*;\s*unicode-range:([^;]+);/g,
      ),
    ].map(([, file, range]) => [file, range]),
  )
  const version = JSON.parse(readFileSync(join(root, 'node_modules/subset-font/package.json'), 'utf8')).version
  return {
    name: 'brand-faces',
    setup(build) {
      build.onResolve({ filter: /^@fontsource-variable\/.+\.woff2$/ }, async ({ path }) => {
        const range = ranges.get(path)
        if (range === undefined) return undefined
        const source = readFileSync(join(root, 'node_modules', path))
        const key = createHash('sha256')
          .update(source)
          .update(`${range}|${BRAND_WEIGHTS.min}-${BRAND_WEIGHTS.max}|subset-font ${version}`)
          .digest('hex')
          .slice(0, 16)
        const folder = join(root, 'node_modules/.cache/brand-faces', key)
        const file = join(folder, basename(path))
        if (!existsSync(file)) {
          const face = await subsetFont(source, rangeText(range), {
            targetFormat: 'woff2',
            variationAxes: { wght: BRAND_WEIGHTS },
          })
          mkdirSync(folder, { recursive: true })
          writeFileSync(file, face)
        }
        return { path: file }
      })
    },
  }
}
