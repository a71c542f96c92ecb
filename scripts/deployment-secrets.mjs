// The secrets a deployment needs, from its variables, and the names an operator's file says are set (docs/deploy.md,
// docs/decisions/052). No network: the file is one the operator already has.
import { readFileSync } from 'node:fs'

/**
 * The secrets a deployment with these variables cannot run without: the sessions', the purge's and the whistleblower
 * keyring always; the payment webhook's where checkout is served; Stripe's, the mail service's, the backend's Access
 * and service tokens and Turnstile's where the variables name them (docs/configuration.md).
 *
 * @example
 * requiredSecrets({ PAYMENT_PROVIDER: 'stripe', MAIL_PROVIDER: 'resend' }, { sellsOnline: true })
 * // ['SESSION_SECRET', 'PURGE_SECRET', 'WHISTLEBLOWER_KEYS', 'PAYMENT_WEBHOOK_SECRET', 'STRIPE_SECRET_KEY', …]
 * @param {Record<string, string>} vars
 * @param {{ sellsOnline: boolean }} deployment
 * @returns {string[]}
 */
export function requiredSecrets(vars, { sellsOnline }) {
  return [
    'SESSION_SECRET',
    'PURGE_SECRET',
    'WHISTLEBLOWER_KEYS',
    ...(sellsOnline ? ['PAYMENT_WEBHOOK_SECRET'] : []),
    ...(vars.PAYMENT_PROVIDER === 'stripe' ? ['STRIPE_SECRET_KEY'] : []),
    ...(vars.MAIL_PROVIDER === 'resend' ? ['MAIL_API_KEY', 'MAIL_WEBHOOK_SECRET'] : []),
    ...(vars.UPSTREAM_URL
      ? ['UPSTREAM_ACCESS_CLIENT_ID', 'UPSTREAM_ACCESS_CLIENT_SECRET', 'UPSTREAM_SERVICE_TOKEN']
      : []),
    ...(vars.TURNSTILE_SITE_KEY ? ['TURNSTILE_SECRET_KEY'] : []),
  ]
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
