// The secrets a deployment needs, from its variables, and the names an operator's file says are set (docs/deploy.md,
// docs/decisions/052). No network: the file is one the operator already has.
import { readFileSync } from 'node:fs'
import { importBundled } from './bundled.mjs'

/** The Worker's own list (src/ops/required-secrets.ts, which `/_health/deep` checks too), bundled for Node once. */
const secretsOfTheWorker = await importBundled('src/ops/required-secrets.ts', 'required-secrets')

/**
 * The names of the secrets a deployment with these variables cannot run without, as the Worker's `/_health/deep`
 * reads them (docs/configuration.md): one rule for both.
 *
 * @example
 * requiredSecrets({ PAYMENT_PROVIDER: 'stripe', MAIL_PROVIDER: 'resend' }, { sellsOnline: true })
 * // ['SESSION_SECRET', 'PURGE_SECRET', 'WHISTLEBLOWER_KEYS', 'PAYMENT_WEBHOOK_SECRET', 'STRIPE_SECRET_KEY', …]
 * @param {Record<string, string>} vars
 * @param {{ sellsOnline: boolean }} deployment
 * @returns {string[]}
 */
export function requiredSecrets(vars, deployment) {
  return secretsOfTheWorker.requiredSecrets(vars, deployment).map((secret) => secret.name)
}

/** Every secret the Worker reads (src/env.ts): none of them belongs in `[vars]`, where anyone with the repository reads it. */
export const SECRET_NAMES = [
  'SESSION_SECRET',
  'SESSION_SECRET_PREVIOUS',
  'PURGE_SECRET',
  'TURNSTILE_SECRET_KEY',
  'WHISTLEBLOWER_KEYS',
  'WHISTLEBLOWER_KEY',
  'PAYMENT_WEBHOOK_SECRET',
  'STRIPE_SECRET_KEY',
  'UPSTREAM_SERVICE_TOKEN',
  'UPSTREAM_ACCESS_CLIENT_ID',
  'UPSTREAM_ACCESS_CLIENT_SECRET',
  'MAIL_API_KEY',
  'MAIL_WEBHOOK_SECRET',
]

/**
 * The names of the secrets set, read from a file in one of three shapes: what `wrangler secret list --format json`
 * prints (`[{ "name": … }]`), or a file `wrangler versions upload --secrets-file` takes (a JSON object, or `NAME=value`
 * lines). A name with an empty value is not set.
 *
 * @example
 * secretNamesIn('.secrets.production') // Set { 'SESSION_SECRET', 'PURGE_SECRET', … }
 * @param {string} file
 * @returns {Set<string>}
 */
export function secretNamesIn(file) {
  const text = readFileSync(file, 'utf8')
  const trimmed = text.trim()
  if (trimmed.startsWith('[')) {
    return new Set(JSON.parse(trimmed).map((entry) => (typeof entry === 'string' ? entry : entry.name)))
  }
  if (trimmed.startsWith('{')) {
    return new Set(Object.entries(JSON.parse(trimmed)).flatMap(([name, value]) => (value ? [name] : [])))
  }
  return new Set(
    [...text.matchAll(/^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/gm)].flatMap(([, name, value]) =>
      value.trim().replace(/^(["'])(.*)\1$/, '$2') ? [name] : [],
    ),
  )
}
