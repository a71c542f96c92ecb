import { parseArgs } from 'node:util'
import { checkBackend } from './check'
import { reportText } from './report'

/** Where `npm start` serves the embedded reference API (its public `/api/`). */
const EMBEDDED = `http://127.0.0.1:${process.env.PORT || 8787}`

const USAGE = `usage: npm run check:backend -- <https://api.brand.example | --embedded> [options]
  --embedded             the reference API's reads as a running \`npm start\` serves them (${EMBEDDED}; PORT=…)
  --country it           the market to read (else the first of api/sites); --locale it its language
  --token T              a customer's bearer token for the account, cart and user
  --email E --password P log in for one instead
  --staff-token T        a staff member's (an editor's) token for the staff console's reads`

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
    help: { type: 'boolean' },
  },
})

const base = values.embedded ? EMBEDDED : positionals[0]
if (values.help || !base || !/^https?:\/\//.test(base)) {
  console.error(USAGE)
  process.exit(2)
}
const credentials = values.email && values.password ? { email: values.email, password: values.password } : undefined

const report = await checkBackend({
  base,
  fetch,
  country: values.country,
  locale: values.locale,
  token: values.token,
  credentials,
  staffToken: values['staff-token'],
  readsOnly: values.embedded,
})
console.log(reportText(report))
process.exit(report.passed ? 0 : 1)
