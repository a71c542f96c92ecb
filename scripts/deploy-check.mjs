// `npm run deploy:check -- --env production [--secrets FILE] [--markets FILE] [--config wrangler.toml]`: refuses a
// deployment's configuration before anything is uploaded, without network (docs/deploy.md, docs/decisions/052). Prints
// every problem, one a line, and exits 1; exits 0 when the environment may go live; 2 on a wrong command line.
// --secrets: the names of the secrets set (`wrangler secret list --env NAME --format json` saved to a file, or the file
// given to `wrangler versions upload --secrets-file`); without it the secrets themselves are left to wrangler, which
// refuses an upload lacking one of `[secrets] required`. --markets: the brand's markets as the loader takes them (a
// JSON array; `commerce.sells_online` or `sells_online`), to name the markets that sell online.
import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { experimental_readRawConfig } from 'wrangler'
import { deploymentProblems } from './deployment-problems.mjs'
import { requiredSecrets, secretNamesIn } from './deployment-secrets.mjs'
import { root } from './local.mjs'

const usage =
  'usage: npm run deploy:check -- --env staging|production [--secrets FILE] [--markets FILE] [--config FILE]'
let options
try {
  ;({ values: options } = parseArgs({
    options: {
      env: { type: 'string' },
      secrets: { type: 'string' },
      markets: { type: 'string' },
      config: { type: 'string', default: 'wrangler.toml' },
    },
  }))
} catch (error) {
  console.error(`${error.message}\n${usage}`)
  process.exit(2)
}
if (!options.env) {
  console.error(`${usage}\n(the top level of wrangler.toml is local development's: it is never deployed)`)
  process.exit(2)
}

const config = resolve(root, options.config)
const { rawConfig } = experimental_readRawConfig({ config })
const secretNames = options.secrets ? secretNamesIn(resolve(options.secrets)) : null
const sellingMarkets = options.markets ? marketsSellingOnline(resolve(options.markets)) : null
const problems = deploymentProblems(rawConfig, options.env, {
  secretNames,
  sellingMarkets,
  marketsFile: options.markets ? relative(root, resolve(options.markets)) : null,
})

const where = `[env.${options.env}] of ${relative(process.cwd(), config) || config}`
if (problems.length) {
  console.error(
    `deploy check: ${where} cannot go live (${problems.length} problem${problems.length === 1 ? '' : 's'}):`,
  )
  for (const problem of problems) console.error(`  - ${problem}`)
  process.exit(1)
}
const secrets = requiredSecrets(rawConfig.env[options.env].vars ?? {}, {
  sellsOnline: sellingMarkets ? sellingMarkets.length > 0 : true,
})
console.log(
  `deploy check: ${where} may go live; ${
    secretNames
      ? `its ${secrets.length} required secrets are set`
      : 'its secrets not checked here (no --secrets): wrangler refuses an upload lacking one of [secrets] required'
  }`,
)

/** The slugs of the markets that sell online in the brand's markets file. */
function marketsSellingOnline(file) {
  const markets = JSON.parse(readFileSync(file, 'utf8'))
  return markets
    .filter((market) => market.commerce?.sells_online === true || market.sells_online === true)
    .map((market) => market.slug)
}
