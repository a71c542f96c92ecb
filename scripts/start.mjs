// `npm start`: the whole site on the embedded API, on a fresh clone: packages, local D1 with demo data, wrangler dev.
// `UPSTREAM_URL=https://… npm start` points it at a backend instead, with the Worker's Access service token from the
// environment (UPSTREAM_ACCESS_CLIENT_ID / _SECRET) or from `.dev.vars`, which wrangler reads itself (docs/configuration.md).
// Quiet: what it is doing, then the site's address, the demo logins and the console's address last; wrangler's own
// start-up lines are shown only if it stops before it is ready, its request lines once it is.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { DEMO_CUSTOMERS, DEMO_STAFF } from './demo-seed.mjs'
import { ensureDependencies, persistArgs, prepareLocalDatabase, quietEnv, root, tool } from './local.mjs'

const port = process.env.PORT || '8787'
const site = `http://127.0.0.1:${port}`
const started = Date.now()
const since = () => `${((Date.now() - started) / 1000).toFixed(1)} s`
/**
 * The backend, the areas it serves, its Access service token and the Worker's token for settling payments there,
 * when the environment names them (`.dev.vars` may name them too).
 */
const UPSTREAM_VARIABLES = [
  'UPSTREAM_URL',
  'UPSTREAM_AREAS',
  'UPSTREAM_ACCESS_CLIENT_ID',
  'UPSTREAM_ACCESS_CLIENT_SECRET',
  'UPSTREAM_SERVICE_TOKEN',
]
const upstream = process.env.UPSTREAM_URL || null

ensureDependencies()
console.log('Preparing the local database (migrations, demo data)…')
await prepareLocalDatabase()
console.log(`Building the client and starting wrangler dev (${since()})…`)

const wrangler = spawn(
  ...tool('wrangler', [
    'dev',
    '--ip',
    '127.0.0.1',
    '--port',
    port,
    '--inspector-port',
    String(Number(port) + 1000),
    ...persistArgs(),
    '--var',
    'PURGE_SECRET:local-purge-secret',
    '--var',
    'SESSION_SECRET:local-session-secret-not-for-production',
    '--var',
    `PUBLIC_ORIGIN:${site}`,
    '--var',
    'WHISTLEBLOWER_KEY:local-whistleblower-key-not-for-production',
    '--var',
    'PAYMENT_WEBHOOK_SECRET:local-payment-webhook-secret-not-for-production',
    ...UPSTREAM_VARIABLES.flatMap((name) => (process.env[name] ? ['--var', `${name}:${process.env[name]}`] : [])),
    // The browser tests' site: their robots fill in forms faster than a person (the rule itself is proven in workerd).
    ...(process.env.FORM_MIN_FILL_SECONDS
      ? ['--var', `FORM_MIN_FILL_SECONDS:${process.env.FORM_MIN_FILL_SECONDS}`]
      : []),
  ]),
  { cwd: root, env: quietEnv(), stdio: ['inherit', 'pipe', 'pipe'] },
)

let ready = false
const startUp = []
for (const stream of [wrangler.stdout, wrangler.stderr]) {
  createInterface({ input: stream }).on('line', (line) => {
    if (ready) return (stream === wrangler.stderr ? console.error : console.log)(line)
    startUp.push(line)
    if (/Ready on http/.test(line)) {
      ready = true
      announce()
    }
  })
}

function announce() {
  const [customer] = DEMO_CUSTOMERS
  console.log(`
The site is ready after ${since()}: ${site}
${
  upstream
    ? `  Backend:        ${upstream} (its cached answers are its own: a switch starts from empty caches)`
    : `  Demo customer:  ${customer.email} / ${customer.password} (log in at ${site}/login)`
}
  Purge secret:   local-purge-secret (local use only)
  Staff console:  ${site}/_console — ${DEMO_STAFF.map((member) => `${member.role} ${member.email} / ${member.password}`).join(', ')}
                  (their TOTP secrets: docs/console.md)
`)
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => wrangler.kill(signal))
wrangler.on('exit', (code, signal) => {
  if (!ready) {
    console.error(startUp.join('\n'))
    console.error(`\nwrangler dev stopped before it was ready (${signal ?? code})`)
  }
  process.exit(code ?? 1)
})
