// What keeps one environment of wrangler.toml from going live, found without network: placeholders, example hosts,
// local development's values, a workers.dev address, the test payment provider or no mail sender where it must not
// be, bindings the top level has and the environment lacks, secrets not required or not set (docs/decisions/052).
import { SECRET_NAMES, requiredSecrets } from './deployment-secrets.mjs'

/** Bindings wrangler never takes from the top level into an environment: each must name its own. */
const BINDING_LISTS = {
  kv_namespaces: 'binding',
  d1_databases: 'binding',
  r2_buckets: 'binding',
  ratelimits: 'name',
  analytics_engine_datasets: 'binding',
  services: 'binding',
}

/** Variables whose value is the brand's own per deployment: the top level's are local development's examples. */
const DEPLOYMENT_VARIABLES = [
  'PUBLIC_ORIGIN',
  'GTM_FALLBACKS',
  'MEXICO_TAG_URL',
  'CONSENT_POLICY_URL',
  'CONSENT_POLICY_IDS',
  'ACCESS_TEAM_DOMAIN',
  'ACCESS_AUD',
  'MAIL_FROM',
  'TURNSTILE_SITE_KEY',
]

/** Hosts that are nobody's on the Internet (RFC 2606, 6761) or this machine's. */
const RESERVED_HOST =
  /(?:^|[^a-z0-9.-])((?:[a-z0-9-]+\.)*(?:[a-z0-9-]+\.(?:example|test|invalid|localhost)|example\.(?:com|net|org)|localhost|127\.0\.0\.1))(?![a-z0-9-])/i

/** `[env.production]` → `[env.production.vars]`: where a problem is. */
const section = (at, part) => at.replace(/]$/, `.${part}]`)

/** A value left for the brand's account to fill in: a word saying so, or an id of zeros (a last digit or two apart). */
export const isPlaceholder = (value) =>
  typeof value === 'string' &&
  (/placeholder|replace[-_ ]?me|changeme|your[-_]/i.test(value) ||
    /^0{12,}[0-9a-f]{0,4}$/i.test(value.replaceAll('-', '')))

/**
 * Every problem that keeps the environment `name` of a raw wrangler configuration from being deployed, each a line
 * that names the setting and what to do; empty when it may go live.
 *
 * @example
 * deploymentProblems(rawConfig, 'production', { secretNames: new Set(['SESSION_SECRET']) })
 * // ['[env.production.vars] PUBLIC_ORIGIN: "https://www.aurora-cycles.example" is an example host', …]
 * @param {Record<string, any>} rawConfig wrangler's raw configuration (experimental_readRawConfig)
 * @param {string} name the environment
 * @param {{ secretNames?: Set<string> | null, sellingMarkets?: string[] | null, marketsFile?: string | null }} [options]
 * @returns {string[]}
 */
export function deploymentProblems(
  rawConfig,
  name,
  { secretNames = null, sellingMarkets = null, marketsFile = null } = {},
) {
  const env = rawConfig.env?.[name]
  if (!env)
    return [
      `[env.${name}] is not in wrangler.toml (its environments: ${Object.keys(rawConfig.env ?? {}).join(', ') || 'none'})`,
    ]
  const production = name === 'production'
  const vars = env.vars ?? {}
  const at = `[env.${name}]`
  const sellsOnline = sellingMarkets ? sellingMarkets.length > 0 : servesCheckout(vars)
  const problems = [
    ...bindingProblems(rawConfig, name),
    ...addressProblems(env, vars, at),
    ...variableProblems(rawConfig.vars ?? {}, vars, at),
    ...commerceProblems(vars, { production, sellsOnline, sellingMarkets, at }),
    ...queueProblems(env, vars, at),
    ...(production && marketsFile && /(^|\/)demo\//.test(marketsFile)
      ? [`--markets ${marketsFile}: the demo's markets never go to production; load the brand's (docs/deploy.md)`]
      : []),
  ]
  const required = requiredSecrets(vars, { sellsOnline })
  const declared = new Set(env.secrets?.required ?? [])
  for (const secret of required) {
    if (!declared.has(secret))
      problems.push(`${section(at, 'secrets')} required lacks ${secret}: wrangler then uploads a version without it`)
    if (secretNames && !secretNames.has(secret))
      problems.push(`secret ${secret} is not set: npx wrangler secret put ${secret} --env ${name}`)
  }
  for (const secret of SECRET_NAMES)
    if (secret in vars)
      problems.push(`${section(at, 'vars')} ${secret} is a secret: never in wrangler.toml (wrangler secret put)`)
  return problems
}

/** Whether the Worker serves checkout: the embedded API, a backend serving every area or cart-checkout, or it held. */
function servesCheckout(vars) {
  const listed = (value) => (value ?? '').split(',').map((area) => area.trim())
  return (
    !vars.UPSTREAM_URL ||
    !vars.UPSTREAM_AREAS ||
    listed(vars.UPSTREAM_AREAS).includes('cart-checkout') ||
    listed(vars.UPSTREAM_HOLD).includes('cart-checkout')
  )
}

/** Ids still placeholders, top-level bindings the environment lacks, resources shared with another environment. */
function bindingProblems(rawConfig, name) {
  const env = rawConfig.env[name]
  const problems = []
  for (const [list, key] of Object.entries(BINDING_LISTS)) {
    const own = new Set((env[list] ?? []).map((binding) => binding[key]))
    for (const binding of rawConfig[list] ?? [])
      if (!own.has(binding[key]))
        problems.push(
          `[env.${name}] ${list}: ${binding[key]} is bound at the top level but not here (wrangler never inherits it)`,
        )
  }
  const ownProducers = new Set((env.queues?.producers ?? []).map((producer) => producer.binding))
  for (const producer of rawConfig.queues?.producers ?? [])
    if (!ownProducers.has(producer.binding))
      problems.push(
        `[env.${name}] queues.producers: ${producer.binding} is bound at the top level but not here (wrangler never inherits it)`,
      )
  for (const kv of env.kv_namespaces ?? [])
    if (isPlaceholder(kv.id))
      problems.push(
        `[env.${name}] kv_namespaces ${kv.binding}: id "${kv.id}" is a placeholder (npx wrangler kv namespace create)`,
      )
  for (const db of env.d1_databases ?? []) {
    if (isPlaceholder(db.database_id))
      problems.push(
        `[env.${name}] d1_databases ${db.binding}: database_id "${db.database_id}" is a placeholder (npx wrangler d1 create ${db.database_name})`,
      )
    if ((db.migrations_dir ?? 'migrations') !== 'migrations')
      problems.push(
        `[env.${name}] d1_databases ${db.binding}: migrations_dir "${db.migrations_dir}" is not the schema's (migrations/); the demo seed never leaves this machine`,
      )
  }
  const producers = (env.queues?.producers ?? []).map((producer) => producer.queue)
  const resources = (section) => [
    ...(section.kv_namespaces ?? []).map((kv) => `KV namespace ${kv.id}`),
    ...(section.d1_databases ?? []).map((db) => `D1 database ${db.database_id}`),
    ...(section.r2_buckets ?? []).map((bucket) => `R2 bucket ${bucket.bucket_name}`),
    ...(section.queues?.producers ?? []).map((producer) => `queue ${producer.queue}`),
  ]
  const mine = new Set(resources(env))
  for (const [other, section] of Object.entries(rawConfig.env))
    if (other !== name)
      for (const resource of resources(section))
        if (mine.has(resource))
          problems.push(`[env.${name}] shares the ${resource} with [env.${other}]: each environment has its own`)
  if (producers.some(isPlaceholder)) problems.push(`[env.${name}] queues: a queue name is a placeholder`)
  return problems
}

/** Where the deployment answers: its own domain only, the one PUBLIC_ORIGIN names. */
function addressProblems(env, vars, at) {
  const problems = []
  if (env.workers_dev !== false)
    problems.push(
      `${at} workers_dev must be false: on *.workers.dev, /_console, /_purge and the webhooks are outside Access`,
    )
  if (env.preview_urls === true)
    problems.push(`${at} preview_urls must be false: every version would answer on workers.dev`)
  const routes = [...(env.routes ?? []), ...(env.route ? [env.route] : [])]
  const hosts = routes.map((route) => (typeof route === 'string' ? route : route.pattern).split('/')[0])
  if (hosts.length === 0) problems.push(`${at} has no routes: name the domain it answers on (custom_domain = true)`)
  for (const host of hosts)
    if (RESERVED_HOST.test(` ${host}`)) problems.push(`${at} routes: "${host}" is an example host`)
  let origin = null
  try {
    origin = new URL(vars.PUBLIC_ORIGIN ?? '')
  } catch {}
  if (origin?.protocol !== 'https:' || origin.origin !== vars.PUBLIC_ORIGIN.replace(/\/$/, ''))
    problems.push(
      `${section(at, 'vars')} PUBLIC_ORIGIN: "${vars.PUBLIC_ORIGIN ?? ''}" is not an https: origin (https://www.brand.com)`,
    )
  else if (
    hosts.length &&
    !hosts.some((host) => host === origin.hostname || (host.startsWith('*') && origin.hostname.endsWith(host.slice(1))))
  )
    problems.push(
      `${section(at, 'vars')} PUBLIC_ORIGIN: ${origin.hostname} is none of the routes' hosts (${hosts.join(', ')})`,
    )
  return problems
}

/** Example hosts, placeholders, local development's values and the console's Access left unset. */
function variableProblems(topVars, vars, at) {
  const problems = []
  for (const name of Object.keys(topVars))
    if (!(name in vars))
      problems.push(
        `${section(at, 'vars')} lacks ${name} (wrangler never inherits [vars]; local development's value is ${JSON.stringify(topVars[name])})`,
      )
  for (const [name, value] of Object.entries(vars)) {
    const text = String(value)
    const host = RESERVED_HOST.exec(text)?.[1]
    if (host) problems.push(`${section(at, 'vars')} ${name}: "${host}" is an example host`)
    else if (isPlaceholder(text)) problems.push(`${section(at, 'vars')} ${name}: "${text}" is a placeholder`)
    else if (DEPLOYMENT_VARIABLES.includes(name) && text && text === topVars[name])
      problems.push(`${section(at, 'vars')} ${name}: still local development's example value`)
  }
  const exampleContainers = new Set(Object.values(parsed(topVars.GTM_FALLBACKS)))
  for (const [region, container] of Object.entries(parsed(vars.GTM_FALLBACKS)))
    if (exampleContainers.has(container))
      problems.push(`${section(at, 'vars')} GTM_FALLBACKS ${region}: ${container} is the demo's container`)
  if (!vars.ACCESS_TEAM_DOMAIN || !vars.ACCESS_AUD)
    problems.push(
      `${section(at, 'vars')} ACCESS_TEAM_DOMAIN and ACCESS_AUD: both set, or /_console takes anyone who finds it (docs/console.md)`,
    )
  else if (!/^https:\/\/[a-z0-9-]+\.cloudflareaccess\.com\/?$/.test(vars.ACCESS_TEAM_DOMAIN))
    problems.push(
      `${section(at, 'vars')} ACCESS_TEAM_DOMAIN: "${vars.ACCESS_TEAM_DOMAIN}" is not https://{team}.cloudflareaccess.com`,
    )
  if (vars.STRIPE_API_URL)
    problems.push(
      `${section(at, 'vars')} STRIPE_API_URL: a stand-in's address; deployments use Stripe's own (leave it out)`,
    )
  return problems
}

/** A JSON object variable, or none when it is empty or malformed (the Worker logs that itself). */
function parsed(value) {
  try {
    const object = JSON.parse(value || '{}')
    return object && typeof object === 'object' ? object : {}
  } catch {
    return {}
  }
}

/** Who takes the money and who sends the order's mails: never the test provider or the recorder in production. */
function commerceProblems(vars, { production, sellsOnline, sellingMarkets, at }) {
  const problems = []
  const provider = vars.PAYMENT_PROVIDER || 'test'
  const selling = sellingMarkets ? `markets ${sellingMarkets.join(', ')} sell online` : 'checkout is served'
  if (provider !== 'stripe' && provider !== 'test')
    problems.push(`${section(at, 'vars')} PAYMENT_PROVIDER: "${provider}" is no provider (stripe, or test on staging)`)
  else if (provider === 'test' && production)
    problems.push(
      `${section(at, 'vars')} PAYMENT_PROVIDER: the test provider moves no money; production takes "stripe"`,
    )
  else if (provider === 'test' && vars.PAYMENT_TEST_PROVIDER_ALLOWED !== 'staging' && sellsOnline)
    problems.push(
      `${section(at, 'vars')} PAYMENT_PROVIDER: ${selling} with the test provider refused (PAYMENT_TEST_PROVIDER_ALLOWED = "staging", or "stripe")`,
    )
  if (production && vars.PAYMENT_TEST_PROVIDER_ALLOWED)
    problems.push(
      `${section(at, 'vars')} PAYMENT_TEST_PROVIDER_ALLOWED: production never takes the test provider; leave it out`,
    )
  const mail = vars.MAIL_PROVIDER || 'record'
  if (mail !== 'record' && mail !== 'resend')
    problems.push(`${section(at, 'vars')} MAIL_PROVIDER: "${mail}" is no mail sender (resend)`)
  else if (mail === 'record' && production)
    problems.push(
      `${section(at, 'vars')} MAIL_PROVIDER: "record" sends nothing; production takes "resend" (docs/mail.md)`,
    )
  else if (mail === 'record' && sellsOnline)
    problems.push(
      `${section(at, 'vars')} MAIL_PROVIDER: ${selling} with no mail sender; order mails would never leave ("resend")`,
    )
  if (mail === 'resend') {
    if (!vars.MAIL_FROM) problems.push(`${section(at, 'vars')} MAIL_FROM: the sender of every mail is not set`)
    if (!/^https:\/\//.test(vars.MAIL_API_URL ?? ''))
      problems.push(`${section(at, 'vars')} MAIL_API_URL: not an https: URL`)
  }
  return problems
}

/** The mail queue's producer, its consumer, and the dead-letter queue the Worker is told of. */
function queueProblems(env, vars, at) {
  const producer = (env.queues?.producers ?? []).find((queue) => queue.binding === 'MAIL_QUEUE')
  if (!producer) return []
  const consumer = (env.queues?.consumers ?? []).find((queue) => queue.queue === producer.queue)
  if (!consumer) return [`${at} queues: nothing consumes ${producer.queue}; no mail would leave`]
  if (consumer.dead_letter_queue !== vars.MAIL_DEAD_LETTER_QUEUE)
    return [
      `${section(at, 'vars')} MAIL_DEAD_LETTER_QUEUE: "${vars.MAIL_DEAD_LETTER_QUEUE ?? ''}" is not ${producer.queue}'s dead-letter queue (${consumer.dead_letter_queue})`,
    ]
  return []
}
