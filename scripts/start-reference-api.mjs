// The reference API as a Worker of its own (reference-api/worker.ts) in `wrangler dev`: the brand's backend that the
// browser tests' "over HTTP" project runs the site against (docs/decisions/042). Its local D1 gets the migrations and
// the demo data first. PORT (default 8788), WRANGLER_PERSIST_TO, and its secrets from the environment:
// ACCESS_CLIENT_ID / ACCESS_CLIENT_SECRET (the Access service token it checks) and UPSTREAM_SERVICE_TOKEN (settling a
// payment).
import { spawn } from 'node:child_process'
import { ensureDependencies, persistArgs, prepareLocalDatabase, quietEnv, root, tool } from './local.mjs'

const CONFIG = 'reference-api/wrangler.toml'
const SECRETS = ['ACCESS_CLIENT_ID', 'ACCESS_CLIENT_SECRET', 'UPSTREAM_SERVICE_TOKEN']
const port = process.env.PORT || '8788'

ensureDependencies()
await prepareLocalDatabase({ config: CONFIG })

const wrangler = spawn(
  ...tool('wrangler', [
    'dev',
    '--config',
    CONFIG,
    '--ip',
    '127.0.0.1',
    '--port',
    port,
    '--inspector-port',
    String(Number(port) + 1000),
    ...persistArgs(),
    // Served on this machine: the demo's customers and staff may sign in (reference-api/demo-accounts.ts).
    '--var',
    `PUBLIC_ORIGIN:http://127.0.0.1:${port}`,
    ...SECRETS.flatMap((name) => (process.env[name] ? ['--var', `${name}:${process.env[name]}`] : [])),
  ]),
  { cwd: root, env: quietEnv(), stdio: 'inherit' },
)

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => wrangler.kill(signal))
wrangler.on('exit', (code) => process.exit(code ?? 1))
