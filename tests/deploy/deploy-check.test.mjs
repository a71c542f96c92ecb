// The deploy check (scripts/deploy-check.mjs, docs/decisions/052) against the committed wrangler.toml and a filled-in
// copy (tests/fixtures/deploy/), in Node without network: `node scripts/tool.mjs node --test tests/deploy/*.test.mjs`.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { experimental_readRawConfig } from 'wrangler'
import { deploymentProblems } from '../../scripts/deployment-problems.mjs'
import { secretNamesIn } from '../../scripts/deployment-secrets.mjs'
import { root } from '../../scripts/local.mjs'

const FILLED = join(root, 'tests/fixtures/deploy/wrangler.filled.toml')
const PRODUCTION_SECRETS = join(root, 'tests/fixtures/deploy/secrets.production')
const STAGING_SECRET_LIST = join(root, 'tests/fixtures/deploy/secret-list.staging.json')
const read = (config) => experimental_readRawConfig({ config }).rawConfig
const committed = () => read(join(root, 'wrangler.toml'))
/** The filled-in configuration with one environment's settings changed as a test says. */
function filled(name, change) {
  const config = read(FILLED)
  change(config.env[name], config)
  return config
}
const productionSecrets = () => secretNamesIn(PRODUCTION_SECRETS)

/** `npm run deploy:check -- …` as an operator runs it: its exit status and what it printed. */
function deployCheck(...args) {
  const result = spawnSync(process.execPath, [join(root, 'scripts/deploy-check.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
  })
  return { status: result.status, output: result.stdout + result.stderr }
}

describe('the committed wrangler.toml', () => {
  it('refuses production with the list of every placeholder left for the brand', () => {
    assert.deepEqual(deploymentProblems(committed(), 'production'), [
      '[env.production] kv_namespaces CACHE: id "00000000000000000000000000000020" is a placeholder (npx wrangler kv namespace create)',
      '[env.production] kv_namespaces SESSIONS: id "00000000000000000000000000000021" is a placeholder (npx wrangler kv namespace create)',
      '[env.production] d1_databases DB: database_id "00000000-0000-0000-0000-000000000020" is a placeholder (npx wrangler d1 create brand-site-production)',
      '[env.production] routes: "www.aurora-cycles.example" is an example host',
      '[env.production.vars] PUBLIC_ORIGIN: "www.aurora-cycles.example" is an example host',
      '[env.production.vars] MAIL_FROM: "aurora-cycles.example" is an example host',
      "[env.production.vars] GTM_FALLBACKS: still local development's example value",
      '[env.production.vars] MEXICO_TAG_URL: "tag.mexico.aurora-cycles.example" is an example host',
      '[env.production.vars] CONSENT_POLICY_URL: "www.aurora-cycles.example" is an example host',
      "[env.production.vars] CONSENT_POLICY_IDS: still local development's example value",
      '[env.production.vars] ACCESS_TEAM_DOMAIN: "https://placeholder.cloudflareaccess.com" is a placeholder',
      '[env.production.vars] ACCESS_AUD: "placeholder-production-access-aud" is a placeholder',
      "[env.production.vars] GTM_FALLBACKS africa: GTM-AFRICA01 is the demo's container",
      "[env.production.vars] GTM_FALLBACKS americas: GTM-AMERICA1 is the demo's container",
      "[env.production.vars] GTM_FALLBACKS asia: GTM-ASIA001 is the demo's container",
      "[env.production.vars] GTM_FALLBACKS europe: GTM-EUROPE1 is the demo's container",
      "[env.production.vars] GTM_FALLBACKS oceania: GTM-OCEANIA is the demo's container",
    ])
  })

  it('refuses staging on its placeholder ids, hosts and Access', () => {
    const problems = deploymentProblems(committed(), 'staging')
    assert.equal(problems.length, 10)
    assert.ok(problems.some((problem) => /kv_namespaces CACHE: id "0+10" is a placeholder/.test(problem)))
    assert.ok(problems.includes('[env.staging] routes: "staging.aurora-cycles.example" is an example host'))
  })

  it('keeps workers.dev off and every secret wrangler must refuse an upload without', () => {
    for (const name of ['staging', 'production']) {
      const env = committed().env[name]
      assert.equal(env.workers_dev, false)
      assert.ok(env.secrets.required.includes('SESSION_SECRET'))
    }
    assert.ok(committed().env.production.secrets.required.includes('STRIPE_SECRET_KEY'))
  })

  it('exits 1 and prints the list; 2 without an environment (the top level is never deployed)', () => {
    const production = deployCheck('--env', 'production')
    assert.equal(production.status, 1)
    assert.match(production.output, /\[env\.production\] of wrangler\.toml cannot go live \(17 problems\):\n {2}- /)
    assert.equal(deployCheck().status, 2)
  })
})

describe('a filled-in wrangler.toml', () => {
  it('passes production with its secrets set (a --secrets-file), and says so', () => {
    const result = deployCheck('--env', 'production', '--config', FILLED, '--secrets', PRODUCTION_SECRETS)
    assert.equal(result.status, 0, result.output)
    assert.match(result.output, /\[env\.production\].* may go live; its 7 required secrets are set/)
  })

  it('passes staging with the test provider it names (PAYMENT_TEST_PROVIDER_ALLOWED), secrets from `wrangler secret list`', () => {
    const result = deployCheck('--env', 'staging', '--config', FILLED, '--secrets', STAGING_SECRET_LIST)
    assert.equal(result.status, 0, result.output)
  })

  it('refuses a secret not set, and one wrangler is not told to require', () => {
    const secrets = productionSecrets()
    secrets.delete('STRIPE_SECRET_KEY')
    const config = filled('production', (env) => {
      env.secrets.required = env.secrets.required.filter((name) => name !== 'MAIL_WEBHOOK_SECRET')
    })
    assert.deepEqual(deploymentProblems(config, 'production', { secretNames: secrets }), [
      'secret STRIPE_SECRET_KEY is not set: npx wrangler secret put STRIPE_SECRET_KEY --env production',
      '[env.production.secrets] required lacks MAIL_WEBHOOK_SECRET: wrangler then uploads a version without it',
    ])
  })

  it('refuses the test provider and the mail recorder in production', () => {
    const config = filled('production', (env) => {
      env.vars.PAYMENT_PROVIDER = 'test'
      env.vars.MAIL_PROVIDER = 'record'
    })
    assert.deepEqual(deploymentProblems(config, 'production', { secretNames: productionSecrets() }), [
      '[env.production.vars] PAYMENT_PROVIDER: the test provider moves no money; production takes "stripe"',
      '[env.production.vars] MAIL_PROVIDER: "record" sends nothing; production takes "resend" (docs/mail.md)',
    ])
  })

  it('refuses markets that sell online with the test provider not allowed, or no mail sender', () => {
    const config = filled('staging', (env) => {
      env.vars.PAYMENT_TEST_PROVIDER_ALLOWED = ''
      env.vars.MAIL_PROVIDER = 'record'
    })
    const sellingMarkets = ['it', 'de']
    assert.deepEqual(deploymentProblems(config, 'staging', { sellingMarkets }), [
      '[env.staging.vars] PAYMENT_PROVIDER: markets it, de sell online with the test provider refused (PAYMENT_TEST_PROVIDER_ALLOWED = "staging", or "stripe")',
      '[env.staging.vars] MAIL_PROVIDER: markets it, de sell online with no mail sender; order mails would never leave ("resend")',
    ])
    assert.deepEqual(deploymentProblems(config, 'staging', { sellingMarkets: [] }), [])
  })

  it('refuses an origin that is not https:, a workers.dev address, and a domain the routes do not serve', () => {
    const config = filled('production', (env) => {
      env.vars.PUBLIC_ORIGIN = 'http://www.aurora-bikes.eu'
      env.workers_dev = true
    })
    assert.deepEqual(deploymentProblems(config, 'production', { secretNames: productionSecrets() }), [
      '[env.production] workers_dev must be false: on *.workers.dev, /_console, /_purge and the webhooks are outside Access',
      '[env.production.vars] PUBLIC_ORIGIN: "http://www.aurora-bikes.eu" is not an https: origin (https://www.brand.com)',
    ])
    const elsewhere = filled('production', (env) => {
      env.vars.PUBLIC_ORIGIN = 'https://shop.aurora-bikes.eu'
    })
    assert.deepEqual(deploymentProblems(elsewhere, 'production', { secretNames: productionSecrets() }), [
      "[env.production.vars] PUBLIC_ORIGIN: shop.aurora-bikes.eu is none of the routes' hosts (www.aurora-bikes.eu)",
    ])
  })

  it('refuses the demo seed in production: migrations other than the schema, the demo markets', () => {
    const config = filled('production', (env) => {
      env.d1_databases[0].migrations_dir = 'demo/migrations'
    })
    assert.deepEqual(
      deploymentProblems(config, 'production', {
        secretNames: productionSecrets(),
        sellingMarkets: ['it'],
        marketsFile: 'demo/markets.json',
      }),
      [
        '[env.production] d1_databases DB: migrations_dir "demo/migrations" is not the schema\'s (migrations/); the demo seed never leaves this machine',
        "--markets demo/markets.json: the demo's markets never go to production; load the brand's (docs/deploy.md)",
      ],
    )
  })

  it('refuses a binding the top level has and the environment lacks, and a resource shared with the other one', () => {
    const config = filled('production', (env, whole) => {
      env.analytics_engine_datasets = []
      env.kv_namespaces[1].id = whole.env.staging.kv_namespaces[1].id
    })
    assert.deepEqual(deploymentProblems(config, 'production', { secretNames: productionSecrets() }), [
      '[env.production] analytics_engine_datasets: METRICS is bound at the top level but not here (wrangler never inherits it)',
      '[env.production] shares the KV namespace 9a8b7c6d5e4f40312a1b0c9d8e7f6a51 with [env.staging]: each environment has its own',
    ])
  })

  it('refuses a mail queue whose dead letters the Worker is not told of, and a secret written as a variable', () => {
    const config = filled('staging', (env) => {
      env.vars.MAIL_DEAD_LETTER_QUEUE = 'brand-site-mail-dead'
      env.vars.SESSION_SECRET = 'in-the-repository'
    })
    assert.deepEqual(deploymentProblems(config, 'staging'), [
      '[env.staging.vars] MAIL_DEAD_LETTER_QUEUE: "brand-site-mail-dead" is not brand-site-staging-mail\'s dead-letter queue (brand-site-staging-mail-dead)',
      '[env.staging.vars] SESSION_SECRET is a secret: never in wrangler.toml (wrangler secret put)',
    ])
  })
})
