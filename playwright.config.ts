import { defineConfig } from '@playwright/test'

/** The site's port for browser tests; `E2E_PORT` lets two checkouts run their browser tests side by side. */
const PORT = Number(process.env.E2E_PORT) || 8799

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
    { name: 'site', testIgnore: SITE_WIDE },
    { name: 'site-wide switches', testMatch: SITE_WIDE, dependencies: ['site'] },
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
  webServer: {
    command: 'node scripts/start.mjs',
    env: { PORT: String(PORT), WRANGLER_PERSIST_TO: '.wrangler/e2e-state', FORM_MIN_FILL_SECONDS: '0' },
    url: `http://127.0.0.1:${PORT}/_health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
