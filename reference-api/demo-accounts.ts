import { logEvent } from './log'

/**
 * Whether the deployment may sign in the demo's customers and staff (rows the demo seed marks `demo = 1`): only a site
 * on this machine (`PUBLIC_ORIGIN` on 127.0.0.1, localhost or `*.localhost`) or under the reserved testing name `.test`
 * (RFC 6761, the workerd tests' `https://site.test`), neither of which a public deployment can have. No origin: none.
 */
export function demoAccountsAllowed(publicOrigin: string | undefined): boolean {
  let hostname: string
  try {
    hostname = new URL(publicOrigin ?? '').hostname
  } catch {
    return false
  }
  return (
    hostname === '127.0.0.1' ||
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname.endsWith('.test')
  )
}

/**
 * Whether a sign-in of `row` is refused because it is a demo account outside local development; logs the refusal
 * (a warning on-call sees: the demo seed reached this deployment's D1).
 */
export function demoAccountRefused(row: { demo?: number } | null, publicOrigin: string | undefined): boolean {
  if (!row?.demo || demoAccountsAllowed(publicOrigin)) return false
  logEvent('warn', 'demo_account_refused', { reason: 'demo rows sign in only on a local deployment' })
  return true
}
