import { readFileSync } from 'node:fs'
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'
import { brandFolder } from './scripts/brand-data/folder'
import { DEMO_STAFF, demoMessages, demoSeedStatements } from './scripts/demo-seed.mjs'
import { MAIL_STAND_IN_KEY, MAIL_STAND_IN_WEBHOOK_SECRET } from './tests/fixtures/mail-stand-in.mjs'

process.env.CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV ??= 'false'

/** The rate limiters' limits as wrangler.toml configures them, for tests that count attempts without a clock. */
const rateLimits = Object.fromEntries(
  [...readFileSync('wrangler.toml', 'utf8').matchAll(/\[\[ratelimits\]\]\s*name = "(\w+)"[\s\S]*?limit = (\d+)/g)].map(
    ([, name, limit]) => [name, Number(limit)],
  ),
)

export default defineConfig({
  plugins: [
    cloudflareTest(async ({ inject }) => ({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        // The site's mail queue as tests see it (docs/mail.md): what a request announces goes to a queue nobody
        // consumes, so no test's outbox changes under it; a test that means the mail to leave hands the site
        // TEST_MAIL_QUEUE, the queue wrangler.toml's consumer (retries, dead letters) really takes.
        queueProducers: {
          MAIL_QUEUE: { queueName: 'brand-site-mail-unconsumed' },
          TEST_MAIL_QUEUE: { queueName: 'brand-site-mail' },
        },
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations('migrations'),
          TEST_DEMO_SEED: [{ name: '0001_demo.sql', queries: demoSeedStatements() }],
          TEST_DEMO_MESSAGES: demoMessages(),
          TEST_RATE_LIMITS: rateLimits,
          TEST_WRANGLER_TOML: readFileSync('wrangler.toml', 'utf8'),
          TEST_DEMO_STAFF: DEMO_STAFF,
          // The brand's data as `npm run data:load` reads a folder (tests/integration/brand-data.test.ts).
          TEST_BRAND_DATA: brandFolder('tests/fixtures/brand-data'),
          // `FULL_SITEMAP_WALK=1 npx vitest run tests/integration/sitemaps.test.ts`: every sitemap URL rendered, not one per kind.
          TEST_FULL_SITEMAP_WALK: process.env.FULL_SITEMAP_WALK ?? '',
          PURGE_SECRET: 'test-purge-secret',
          SESSION_SECRET: 'test-only-session-secret',
          WHISTLEBLOWER_KEY: 'test-only-whistleblower-key',
          PAYMENT_WEBHOOK_SECRET: 'test-only-payment-webhook-secret',
          // The tests' site is a staging deployment that names the test provider (docs/decisions/046);
          // tests/integration/stripe.test.ts takes Stripe's stand-in instead.
          PAYMENT_PROVIDER: 'test',
          PAYMENT_TEST_PROVIDER_ALLOWED: 'staging',
          // The Worker's Access service token at the stand-in backend (tests/fixtures/http-upstream.ts); unused when embedded.
          UPSTREAM_ACCESS_CLIENT_ID: 'test-only-access-client.access',
          UPSTREAM_ACCESS_CLIENT_SECRET: 'test-only-access-client-secret',
          // Resend's stand-in (tests/fixtures/mail-stand-in.mjs): where mails leave to when they do.
          MAIL_PROVIDER: 'resend',
          MAIL_API_URL: inject('mailStandInUrl'),
          MAIL_API_KEY: MAIL_STAND_IN_KEY,
          MAIL_WEBHOOK_SECRET: MAIL_STAND_IN_WEBHOOK_SECRET,
          // The tests' requests go to https://site.test (tests/fixtures/worker.ts): the site's public origin.
          PUBLIC_ORIGIN: 'https://site.test',
        },
      },
    })),
  ],
  test: {
    // Unit files share one runtime (`isolate: false`): they read no storage, stub no global, and pass in any order
    // together; a runtime started for each of the 33 cost 188 s against 31 s (docs/decisions/076-suite-wall-time.md).
    // Integration files each keep a runtime and fresh storage of their own (the demo data loaded per file).
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], isolate: false } },
      { extends: true, test: { name: 'integration', include: ['tests/integration/**/*.test.{ts,tsx}'] } },
    ],
    setupFiles: ['./tests/apply-migrations.ts'],
    // The stand-ins over real HTTP: the brand's own backend (tests/integration/original-backend.test.ts), Stripe's API
    // (tests/integration/stripe.test.ts) and Resend's (tests/integration/mail-queue.test.ts).
    globalSetup: [
      './tests/fixtures/original-backend-setup.ts',
      './tests/fixtures/stripe-stand-in-setup.ts',
      './tests/fixtures/mail-stand-in-setup.ts',
    ],
    // Two files at once on two cores: much of a file's time is its runtime starting and its storage being filled.
    maxWorkers: 2,
    // No test measures speed: a busy machine (sealing 30 MB of attachments, say) gets the time it needs.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
