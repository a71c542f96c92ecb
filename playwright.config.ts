import { defineConfig } from '@playwright/test'

/** The site's port for browser tests; `E2E_PORT` lets two checkouts run their browser tests side by side. */
const PORT = Number(process.env.E2E_PORT) || 8799

/**
 * The journeys that run a second time over HTTP (tagged `@over-http`): the site as the brand would run it, its
 * `UPSTREAM_URL` on the reference API served by a Worker of its own (reference-api/worker.ts) on `E2E_API_PORT`
 * (default the site's port + 1), with an Access service token and the payments' service token; that site on
 * `E2E_OVER_HTTP_PORT` (default + 2). Nothing of the site then works only in-process (docs/decisions/042).
 */
const OVER_HTTP = /@over-http/
const API_PORT = Number(process.env.E2E_API_PORT) || PORT + 1
const OVER_HTTP_PORT = Number(process.env.E2E_OVER_HTTP_PORT) || PORT + 2
const ACCESS = { id: 'test-only-access-client-id', secret: 'test-only-access-client-secret' }

/**
 * The brand's own backend (project "brand backend", tests/e2e/brand-backend.spec.ts): the stand-in of the original's
 * eight calls (tests/fixtures/original-backend.mjs) on `E2E_BRAND_BACKEND_PORT` (default the site's port + 3), and the
 * site on it with `UPSTREAM_AREAS=none` on `E2E_ON_BRAND_BACKEND_PORT` (default + 4): what the backend lacks held by the
 * Worker on D1 or switched off. Only that project's specs run there, and only there.
 */
const BRAND_BACKEND = /brand-backend\.spec\.ts$/
const BRAND_BACKEND_PORT = Number(process.env.E2E_BRAND_BACKEND_PORT) || PORT + 3
const ON_BRAND_BACKEND_PORT = Number(process.env.E2E_ON_BRAND_BACKEND_PORT) || PORT + 4
const SERVICE_TOKEN = 'test-only-upstream-service-token'

/**
 * The journeys paid through Stripe (stripe.spec.ts) run against a site of their own with `PAYMENT_PROVIDER=stripe`,
 * its API the stand-in of tests/fixtures/stripe-stand-in.mjs, on `E2E_STRIPE_PORT` (default the site's port + 5).
 */
const STRIPE_SPEC = /stripe\.spec\.ts$/
const STRIPE_PORT = Number(process.env.E2E_STRIPE_PORT) || PORT + 5

/**
 * Whether a run includes a project: every run does unless `--project` names others (then its servers are not
 * started: `--project "over http"` starts only the reference API and the site over HTTP).
 */
function runsProject(name: string): boolean {
  const asked: string[] = []
  let listing = false
  for (const arg of process.argv.slice(2)) {
    if (arg.startsWith('--project=')) asked.push(arg.slice('--project='.length))
    // `--project a b`: every value up to the next option, as Playwright reads it.
    else if (arg === '--project') listing = true
    else if (arg.startsWith('-')) listing = false
    else if (listing) asked.push(arg)
  }
  return asked.length === 0 || asked.some((project) => project.toLowerCase() === name)
}
const SITE_PROJECTS = ['site', 'site-wide switches']

/** The local regions' containers (wrangler.toml) without Africa's, so that the browser tests have a market without one. */
const NO_AFRICA_CONTAINER =
  '{"americas":"GTM-AMERICA1","asia":"GTM-ASIA001","europe":"GTM-EUROPE1","oceania":"GTM-OCEANIA"}'

/**
 * The specs that change what every visitor sees (console.spec.ts switches Italy into maintenance and back): they run
 * after all the others, so that no page of another test meets the switch.
 */
const SITE_WIDE = /console\.spec\.ts$/

/**
 * Browser tests: Debian's Chromium against the whole site in `wrangler dev`, with a local state of its own. Two
 * workers on two cores (a page's wait on the server is the other's time to render); each test visits from an address
 * of its own (fixtures/offline.ts), makes its own accounts and carts, and reads only what it made.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/e2e',
  workers: 2,
  projects: [
    { name: 'site', testIgnore: [SITE_WIDE, STRIPE_SPEC, BRAND_BACKEND] },
    { name: 'site-wide switches', testMatch: SITE_WIDE, dependencies: ['site'] },
    { name: 'stripe', testMatch: STRIPE_SPEC, use: { baseURL: `http://127.0.0.1:${STRIPE_PORT}` } },
    {
      name: 'over http',
      grep: OVER_HTTP,
      testIgnore: [SITE_WIDE, STRIPE_SPEC, BRAND_BACKEND],
      use: { baseURL: `http://127.0.0.1:${OVER_HTTP_PORT}` },
    },
    {
      name: 'brand backend',
      testMatch: BRAND_BACKEND,
      use: { baseURL: `http://127.0.0.1:${ON_BRAND_BACKEND_PORT}` },
    },
  ],
  // Once in CI, for what a shared 2-core machine may do; a retry is reported as "flaky" in the JSON report, never
  // hidden.
  retries: process.env.CI ? 1 : 0,
  // No test measures speed: a page walk with axe on a busy 2-core machine gets the time it needs.
  timeout: 90_000,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // Headless Chromium calls itself HeadlessChrome, which isbot (rightly) takes for a crawler: visit as a person.
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    ...(SITE_PROJECTS.some(runsProject)
      ? [
          {
            command: 'node scripts/start.mjs',
            env: {
              PORT: String(PORT),
              WRANGLER_PERSIST_TO: '.wrangler/e2e-state',
              FORM_MIN_FILL_SECONDS: '0',
              // Every region's container but Africa's: za-en is a market without a tag manager (before-consent.spec.ts).
              GTM_FALLBACKS: NO_AFRICA_CONTAINER,
            },
            url: `http://127.0.0.1:${PORT}/_health`,
            timeout: 120_000,
            reuseExistingServer: false,
            stdout: 'ignore' as const,
            stderr: 'pipe' as const,
          },
        ]
      : []),
    ...(runsProject('stripe')
      ? [
          {
            command: 'node tests/fixtures/stripe-site.mjs',
            env: {
              PORT: String(STRIPE_PORT),
              WRANGLER_PERSIST_TO: '.wrangler/e2e-stripe-state',
              FORM_MIN_FILL_SECONDS: '0',
            },
            url: `http://127.0.0.1:${STRIPE_PORT}/_health`,
            timeout: 120_000,
            reuseExistingServer: false,
            stdout: 'ignore' as const,
            stderr: 'pipe' as const,
          },
        ]
      : []),
    // Started one after the other: the reference API first, then the site that calls it.
    ...(runsProject('over http')
      ? [
          {
            command: 'node scripts/start-reference-api.mjs',
            env: {
              PORT: String(API_PORT),
              WRANGLER_PERSIST_TO: '.wrangler/e2e-reference-api-state',
              ACCESS_CLIENT_ID: ACCESS.id,
              ACCESS_CLIENT_SECRET: ACCESS.secret,
              UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
            },
            url: `http://127.0.0.1:${API_PORT}/_health`,
            timeout: 120_000,
            reuseExistingServer: false,
            stdout: 'ignore' as const,
            stderr: 'pipe' as const,
          },
          {
            command: 'node scripts/start.mjs',
            env: {
              PORT: String(OVER_HTTP_PORT),
              WRANGLER_PERSIST_TO: '.wrangler/e2e-over-http-state',
              FORM_MIN_FILL_SECONDS: '0',
              UPSTREAM_URL: `http://127.0.0.1:${API_PORT}`,
              UPSTREAM_ACCESS_CLIENT_ID: ACCESS.id,
              UPSTREAM_ACCESS_CLIENT_SECRET: ACCESS.secret,
              UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
            },
            url: `http://127.0.0.1:${OVER_HTTP_PORT}/_health`,
            timeout: 120_000,
            reuseExistingServer: false,
            stdout: 'ignore' as const,
            stderr: 'pipe' as const,
          },
        ]
      : []),
    // The stand-in first, then the site that calls it.
    ...(runsProject('brand backend')
      ? [
          {
            command: `node tests/fixtures/original-backend.mjs ${BRAND_BACKEND_PORT}`,
            url: `http://127.0.0.1:${BRAND_BACKEND_PORT}/api/sites`,
            timeout: 30_000,
            reuseExistingServer: false,
            stdout: 'ignore' as const,
            stderr: 'pipe' as const,
          },
          {
            command: 'node scripts/start.mjs',
            env: {
              PORT: String(ON_BRAND_BACKEND_PORT),
              WRANGLER_PERSIST_TO: '.wrangler/e2e-brand-backend-state',
              FORM_MIN_FILL_SECONDS: '0',
              UPSTREAM_URL: `http://127.0.0.1:${BRAND_BACKEND_PORT}`,
              UPSTREAM_AREAS: 'none',
              UPSTREAM_ACCESS_CLIENT_ID: ACCESS.id,
              UPSTREAM_ACCESS_CLIENT_SECRET: ACCESS.secret,
            },
            url: `http://127.0.0.1:${ON_BRAND_BACKEND_PORT}/_health`,
            timeout: 120_000,
            reuseExistingServer: false,
            stdout: 'ignore' as const,
            stderr: 'pipe' as const,
          },
        ]
      : []),
  ],
})
