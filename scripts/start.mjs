// `npm start`: the whole site on the embedded API, on a fresh clone: packages, local D1 with demo data, wrangler dev.
// `UPSTREAM_URL=https://… npm start` points it at a backend instead, with the Worker's Access service token from the
// environment (UPSTREAM_ACCESS_CLIENT_ID / _SECRET) or from `.dev.vars`, which wrangler reads itself (docs/configuration.md),
// after checking once that the backend serves the areas UPSTREAM_AREAS declares (a warning if not; it starts anyway).
// Payments are the test provider's unless the environment or `.dev.vars` name Stripe (PAYMENT_PROVIDER=stripe,
// STRIPE_SECRET_KEY, PAYMENT_WEBHOOK_SECRET, STRIPE_API_URL).
// Quiet: what it is doing, then the site's address, the demo logins and the console's address last; wrangler's own
// start-up lines are shown only if it stops before it is ready, its request lines once it is.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
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
  'UPSTREAM_HOLD',
  'UPSTREAM_ACCESS_CLIENT_ID',
  'UPSTREAM_ACCESS_CLIENT_SECRET',
  'UPSTREAM_SERVICE_TOKEN',
]
/** Stripe's settings (docs/configuration.md "Payments"), when the environment names them. */
const PAYMENT_VARIABLES = ['STRIPE_SECRET_KEY', 'STRIPE_API_URL', 'PAYMENT_TEST_PROVIDER_ALLOWED']
const upstream = process.env.UPSTREAM_URL || null

/** The names `.dev.vars` sets (wrangler reads their values itself, and a `--var` would win over them). */
const devVars = new Set(
  existsSync(`${root}/.dev.vars`)
    ? [...readFileSync(`${root}/.dev.vars`, 'utf8').matchAll(/^\s*(?:export\s+)?([A-Z0-9_]+)\s*=/gm)].map(
        ([, name]) => name,
      )
    : [],
)
/** A setting from the environment, else the local default unless `.dev.vars` names it. */
const localSetting = (name, value) =>
  process.env[name] ? ['--var', `${name}:${process.env[name]}`] : devVars.has(name) ? [] : ['--var', `${name}:${value}`]

ensureDependencies()
// The backend's areas checked once, while the database is prepared (docs/backend.md "Checking a backend").
const backendCheck = upstream ? checkBackend(upstream) : null
console.log('Preparing the local database (migrations, demo data)…')
await prepareLocalDatabase()
if (backendCheck) console.log(await backendCheck)
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
    // The test provider (wrangler.toml names Stripe for deployments), unless the environment or .dev.vars say otherwise.
    ...localSetting('PAYMENT_PROVIDER', 'test'),
    ...localSetting('PAYMENT_WEBHOOK_SECRET', 'local-payment-webhook-secret-not-for-production'),
    ...[...UPSTREAM_VARIABLES, ...PAYMENT_VARIABLES].flatMap((name) =>
      process.env[name] ? ['--var', `${name}:${process.env[name]}`] : [],
    ),
    // The browser tests' site: their robots fill in forms faster than a person (the rule itself is proven in workerd).
    ...(process.env.FORM_MIN_FILL_SECONDS
      ? ['--var', `FORM_MIN_FILL_SECONDS:${process.env.FORM_MIN_FILL_SECONDS}`]
      : []),
    // The regions' tag manager containers, where the environment names them (the browser tests leave Africa's out).
    ...(process.env.GTM_FALLBACKS ? ['--var', `GTM_FALLBACKS:${process.env.GTM_FALLBACKS}`] : []),
  ]),
  { cwd: root, env: quietEnv(), stdio: ['inherit', 'pipe', 'pipe'] },
)

/**
 * `npm run check:backend -- <UPSTREAM_URL> --summary` with the deployment's variables (UPSTREAM_AREAS, the Access
 * token): its summary to print. A failure is a warning naming the areas, never a stop: the site starts anyway, and a
 * page of a failing area answers as the error catalogue says (docs/decisions/044).
 */
function checkBackend(url) {
  return new Promise((resolve) => {
    const check = spawn(process.execPath, [join(root, 'scripts/check-backend.mjs'), url, '--summary'], {
      cwd: root,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    })
    let output = ''
    for (const stream of [check.stdout, check.stderr]) stream.on('data', (chunk) => (output += chunk))
    check.on('error', (error) => resolve(`Warning: the backend's areas were not checked (${error.message})`))
    check.on('close', (code) => {
      const summary = output.trim().replaceAll('\n', '\n  ')
      if (code === 0) resolve(`Backend ${url}: ${summary}`)
      else if (code === 1)
        resolve(
          `Warning: the backend ${url} does not serve what the site will ask of it; the site starts anyway, and the ` +
            `pages of these areas answer errors (fix the backend or UPSTREAM_AREAS: docs/backend.md)\n  ${summary}`,
        )
      else
        resolve(
          `Warning: the backend's areas were not checked (check:backend ended ${code ?? 'by timeout'})\n  ${summary}`,
        )
    })
  })
}

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
