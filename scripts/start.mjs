// `npm start`: the whole site on the embedded API, on a fresh clone: packages, local D1 with demo data, wrangler dev.
import { ensureDependencies, persistArgs, prepareLocalDatabase, run } from './local.mjs'
import { fixProxyWorker } from './proxy-worker-fix.mjs'

const port = process.env.PORT || '8787'

ensureDependencies()
console.log(fixProxyWorker())
await prepareLocalDatabase()
console.log(`\nStarting the site on http://127.0.0.1:${port} (purge secret for local use: local-purge-secret; staff console at /_console, demo staff in the README)\n`)
run('npx', [
  'wrangler', 'dev', '--ip', '127.0.0.1', '--port', port, '--inspector-port', String(Number(port) + 1000), ...persistArgs(),
  '--var', 'PURGE_SECRET:local-purge-secret', '--var', 'SESSION_SECRET:local-session-secret-not-for-production',
  '--var', `PUBLIC_ORIGIN:http://127.0.0.1:${port}`, '--var', 'WHISTLEBLOWER_KEY:local-whistleblower-key-not-for-production',
  '--var', 'PAYMENT_WEBHOOK_SECRET:local-payment-webhook-secret-not-for-production',
])
