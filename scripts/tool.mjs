// `node scripts/tool.mjs wrangler d1 execute DB --local --command "…"`: one of the toolchain's commands (wrangler,
// vitest, playwright, or `node` and a script that loads Miniflare itself) on the Node it needs — this one when it is
// 22.12 or later, else the packaged Node 22 (docs/decisions/029) — with wrangler's quiet settings of .env. Exits with
// the command's status.
import { spawnSync } from 'node:child_process'
import { quietEnv, root, tool } from './local.mjs'

const [name, ...args] = process.argv.slice(2)
if (!['wrangler', 'vitest', 'playwright', 'node'].includes(name)) {
  console.error('usage: node scripts/tool.mjs wrangler|vitest|playwright|node [arguments…]')
  process.exit(2)
}
const [command, commandArgs] = tool(name, args)
const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', env: quietEnv() })
process.exit(result.status ?? 1)
