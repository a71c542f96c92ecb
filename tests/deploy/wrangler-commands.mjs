// What this project's wrangler knows, read from its own `--help` (no network, no account: wrangler's quiet settings of
// .env, as scripts/tool.mjs runs it): per command, its subcommands, whether it takes arguments and its options. Kept
// per wrangler version in tests/fixtures/deploy/wrangler-commands.json (committed, so a fresh clone asks wrangler only
// about commands the runbook gained since; an upgrade of wrangler reads them all again, about two seconds each).
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { quietEnv, root, tool } from '../../scripts/local.mjs'

const VERSION = JSON.parse(readFileSync(join(root, 'node_modules/wrangler/package.json'), 'utf8')).version
const CACHE_FILE = join(root, 'tests/fixtures/deploy/wrangler-commands.json')
const stored = existsSync(CACHE_FILE) ? JSON.parse(readFileSync(CACHE_FILE, 'utf8')) : {}
const known = stored.wrangler === VERSION ? stored.commands : {}

/**
 * @typedef {object} WranglerCommandFacts
 * @property {string[]} subcommands the names of its subcommands
 * @property {boolean} takesArguments whether its usage line names positionals (`<name>`, `[path]`)
 * @property {string[]} options every `--option` its help lists, global ones included
 */

/** The words of a help's usage line (`wrangler d1 create <name>` → ['d1', 'create']) and whether it takes arguments. */
function usage(line) {
  const words = line
    .trim()
    .split(/\s{2,}/)[0]
    .split(' ')
    .slice(1)
  const end = words.findIndex((word) => /^[<[]/.test(word))
  return { words: end === -1 ? words : words.slice(0, end), takesArguments: end !== -1 }
}

/** The facts of one help text. */
function factsOf(help, path) {
  const lines = help.split('\n')
  return {
    subcommands: lines
      .filter((line) => /^\s+wrangler /.test(line))
      .map((line) => usage(line).words)
      .filter((words) => words.length === path.length + 1 && path.every((word, i) => words[i] === word))
      .map((words) => words[path.length]),
    takesArguments: path.length > 0 && usage(lines[0] ?? '').takesArguments,
    options: [...new Set(help.match(/(?<=^|[\s,])--[a-z][\w-]*/gm) ?? [])].sort(),
  }
}

/** What `wrangler PATH… --help` says of that command (stored, else asked once and stored). */
export function wranglerFacts(path) {
  const key = path.join(' ')
  if (!(key in known)) {
    const result = spawnSync(...tool('wrangler', [...path, '--help']), { cwd: root, env: quietEnv(), encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`wrangler ${key} --help failed:\n${result.stderr}`)
    known[key] = factsOf(result.stdout, path)
    const commands = Object.fromEntries(
      Object.keys(known)
        .sort()
        .map((name) => [name, known[name]]),
    )
    writeFileSync(CACHE_FILE, `${JSON.stringify({ wrangler: VERSION, commands }, null, 2)}\n`)
  }
  return known[key]
}

/**
 * The wrangler command a runbook's words name (after `wrangler`; its words and arguments before its options): its
 * path and what its help says, or what is wrong with it (an unknown command, an option this command does not take).
 *
 * @example
 * wranglerCommand(['d1', 'time-travel', 'info', 'DB', '--env', 'production'])
 * // { path: ['d1', 'time-travel', 'info'], facts: { subcommands: [], takesArguments: true, options: […] }, problems: [] }
 * @param {string[]} args
 */
export function wranglerCommand(args) {
  const path = []
  const problems = []
  let facts = wranglerFacts(path)
  const firstOption = args.findIndex((arg) => arg.startsWith('-'))
  for (const word of firstOption === -1 ? args : args.slice(0, firstOption)) {
    if (facts.subcommands.includes(word)) {
      path.push(word)
      facts = wranglerFacts(path)
      continue
    }
    if (!facts.takesArguments)
      problems.push(`"wrangler ${[...path, word].join(' ')}" is not a command of wrangler ${VERSION}`)
    break
  }
  for (const option of args.filter((arg) => arg.startsWith('--'))) {
    const name = option.split('=')[0]
    if (!facts.options.includes(name)) problems.push(`"wrangler ${path.join(' ')}" takes no option ${name}`)
  }
  return { path, facts, problems }
}
