import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { persistArgs, root, runTool } from '../local.mjs'
import { brandFolder } from './folder'
import { readBrandData } from './read'
import { brandDataStatements } from './statements'
import { d1ExecuteArgs } from './target'

const USAGE = `usage: npm run data:load -- --from <folder> [--env local|staging|production] [--dry-run]
  --from F     the brand's data files (docs/data.md): markets.json, translations/{locale}.json, catalogue.json,
               news.json, pages.json, dealers.json — each optional
  --env E      local (the default: npm start's D1) or a wrangler environment's remote D1 (needs \`wrangler login\`)
  --dry-run    check the files and write the SQL file, execute nothing`

const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    env: { type: 'string', default: 'local' },
    'dry-run': { type: 'boolean' },
    help: { type: 'boolean' },
  },
})
if (values.help || !values.from) {
  console.error(USAGE)
  process.exit(2)
}

const read = readBrandData(brandFolder(values.from))
if (!read.ok) {
  console.error(`refused: ${read.problems.length} problem(s), nothing written`)
  for (const { file, record, field, message } of read.problems)
    console.error(`  ${file}  ${record}  ${field}: ${message}`)
  process.exit(1)
}
const { data } = read
// Last, as the demo seed does: the search index rebuilt from everything in the D1.
const reindex = readFileSync(join(root, 'scripts/reindex-search.sql'), 'utf8')
const statements = brandDataStatements(data)
const file = join(root, 'dist/brand-data/load.sql')
mkdirSync(join(root, 'dist/brand-data'), { recursive: true })
writeFileSync(file, `${statements.join('\n')}\n${reindex}`)
console.log(
  `checked: ${data.markets.length} markets, ${Object.keys(data.translations).length} locales of texts, ` +
    `${data.catalogue?.products.length ?? 0} products, ${data.news.length} articles, ` +
    `${Object.keys(data.pages).length} pages, ${data.dealers.length} dealers → ${statements.length} upserts in ${file}`,
)
if (values['dry-run']) process.exit(0)
runTool('wrangler', [
  ...d1ExecuteArgs({ env: values.env ?? 'local' }, file),
  ...(values.env === 'local' ? persistArgs() : []),
])
console.log(`loaded into the ${values.env} D1 (rows already the same were not written)`)
