import { declaredAreas } from '../upstream/areas'

/**
 * A secret a deployment cannot run without, by its configuration: its name, the names that may stand in for it (the
 * whistleblower's single legacy key for its keyring), and what goes wrong without it.
 */
export type RequiredSecret = { name: string; alternatives: readonly string[]; without: string }

/** A deployment's variables as wrangler.toml's `[vars]` (or the Worker's env) hold them, by name. */
export type DeploymentVars = object

const text = (vars: DeploymentVars, name: string) => {
  const value = (vars as Record<string, unknown>)[name]
  return typeof value === 'string' ? value.trim() : ''
}

/**
 * The secrets a deployment of this configuration needs, read from its variables only: one list for the Worker's
 * `/_health/deep` (src/ops/deep-health.ts) and the deploy check, so neither can miss one the other names. Always the
 * session and operator secrets and the whistleblower keyring (the Worker holds the channel unless the backend serves
 * it); the payment webhook's where a market sells online (`sellsOnline`: the Worker cannot tell, so it assumes so; the
 * deploy check knows from the brand's markets file), the payment provider's; the backend's credentials with an `UPSTREAM_URL`; Resend's with `MAIL_PROVIDER =
 * "resend"`; Turnstile's secret with its site key.
 *
 * @example
 * requiredSecrets({ PAYMENT_PROVIDER: 'stripe', MAIL_PROVIDER: 'record' }).map((secret) => secret.name)
 * // ['SESSION_SECRET', 'PURGE_SECRET', 'WHISTLEBLOWER_KEYS', 'PAYMENT_WEBHOOK_SECRET', 'STRIPE_SECRET_KEY']
 */
export function requiredSecrets(vars: DeploymentVars, { sellsOnline = true } = {}): RequiredSecret[] {
  const secrets: RequiredSecret[] = [
    { name: 'SESSION_SECRET', alternatives: [], without: 'no login, no session' },
    { name: 'PURGE_SECRET', alternatives: [], without: 'no purge, no re-wrap, no deep health' },
  ]
  const upstream = text(vars, 'UPSTREAM_URL')
  const served = upstream ? declaredAreas(text(vars, 'UPSTREAM_AREAS')).areas : 'all'
  const backendServes = (area: 'whistleblower' | 'cart-checkout') =>
    upstream !== '' && (served === 'all' || served.has(area))
  if (!backendServes('whistleblower'))
    secrets.push({
      name: 'WHISTLEBLOWER_KEYS',
      alternatives: ['WHISTLEBLOWER_KEY'],
      without: 'the whistleblower channel answers 503',
    })
  const provider = text(vars, 'PAYMENT_PROVIDER') || 'test'
  if (sellsOnline) secrets.push({ name: 'PAYMENT_WEBHOOK_SECRET', alternatives: [], without: 'payments answer 503' })
  if (provider === 'stripe')
    secrets.push({ name: 'STRIPE_SECRET_KEY', alternatives: [], without: 'no Stripe checkout' })
  if (upstream) {
    secrets.push(
      { name: 'UPSTREAM_ACCESS_CLIENT_ID', alternatives: [], without: 'no write reaches the backend' },
      { name: 'UPSTREAM_ACCESS_CLIENT_SECRET', alternatives: [], without: 'no write reaches the backend' },
    )
    if (backendServes('cart-checkout'))
      secrets.push({ name: 'UPSTREAM_SERVICE_TOKEN', alternatives: [], without: 'payment webhooks answer 503' })
  }
  if (text(vars, 'MAIL_PROVIDER') === 'resend')
    secrets.push(
      { name: 'MAIL_API_KEY', alternatives: [], without: 'every mail fails unconfigured' },
      { name: 'MAIL_WEBHOOK_SECRET', alternatives: [], without: 'bounces and complaints are refused (503)' },
    )
  if (text(vars, 'TURNSTILE_SITE_KEY'))
    secrets.push({ name: 'TURNSTILE_SECRET_KEY', alternatives: [], without: 'lead forms are not checked by Turnstile' })
  return secrets
}

/**
 * The required secrets a deployment lacks (neither it nor an alternative set to a non-empty value in `secrets`): their
 * names only, never a value.
 *
 * @example
 * missingSecrets(requiredSecrets(env), env) // ['MAIL_API_KEY']
 */
export function missingSecrets(required: readonly RequiredSecret[], secrets: DeploymentVars): string[] {
  return required
    .filter(({ name, alternatives }) => ![name, ...alternatives].some((secret) => text(secrets, secret) !== ''))
    .map(({ name }) => name)
}
