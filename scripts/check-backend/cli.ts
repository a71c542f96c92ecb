import { existsSync, readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { checkBackend } from './check'
import { declarationOf, deploymentVariables } from './deployment'
import { reportText, summaryText } from './report'

/** Where `npm start` serves the embedded reference API (its public `/api/`). */
const EMBEDDED = `http://127.0.0.1:${process.env.PORT || 8787}`

const USAGE = `usage: npm run check:backend -- <https://api.brand.example | --embedded> [options]
  --embedded             the reference API's reads as a running \`npm start\` serves them (${EMBEDDED}; PORT=…)
  --country it           the market to read (else the first of api/sites); --locale it its language
  --token T              a customer's bearer token for the account, cart and user
  --email E --password P log in for one instead
  --staff-token T        a staff member's (an editor's) token for the staff console's reads
  --areas a,b            the areas the deployment declares served (else UPSTREAM_AREAS, from the environment or
                         .dev.vars; empty: every area; none: the eight calls only): each must conform
  --summary              the verdict and what does not conform only (as \`npm start\` prints it)`

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    embedded: { type: 'boolean' },
    country: { type: 'string' },
    locale: { type: 'string' },
    token: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    'staff-token': { type: 'string' },
    areas: { type: 'string' },
    summary: { type: 'boolean' },
    help: { type: 'boolean' },
  },
})

const base = values.embedded ? EMBEDDED : positionals[0]
if (values.help || !base || !/^https?:\/\//.test(base)) {
  console.error(USAGE)
  process.exit(2)
}
const variables = deploymentVariables(process.env, existsSync('.dev.vars') ? readFileSync('.dev.vars', 'utf8') : '')
// The embedded API serves every area whatever UPSTREAM_AREAS says (the Worker ignores it there): nothing to declare.
const declaration = values.embedded ? null : declarationOf(values.areas, variables)
if (declaration?.unknown.length) {
  console.error(`no such area: ${declaration.unknown.join(', ')}\n${USAGE}`)
  process.exit(2)
}
// The Worker's Access service token, when the deployment has one: a backend behind Access answers nothing without it.
const clientId = variables('UPSTREAM_ACCESS_CLIENT_ID')
const clientSecret = variables('UPSTREAM_ACCESS_CLIENT_SECRET')
const withAccess: typeof fetch = (input, init) => {
  const request = new Request(input, init)
  if (clientId && clientSecret) {
    request.headers.set('CF-Access-Client-Id', clientId)
    request.headers.set('CF-Access-Client-Secret', clientSecret)
  }
  return fetch(request)
}
const credentials = values.email && values.password ? { email: values.email, password: values.password } : undefined

const report = await checkBackend({
  base,
  fetch: withAccess,
  declared: declaration?.declared,
  country: values.country,
  locale: values.locale,
  token: values.token,
  credentials,
  staffToken: values['staff-token'],
  readsOnly: values.embedded,
})
console.log(values.summary ? summaryText(report) : reportText(report))
process.exit(report.passed ? 0 : 1)
