declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[]
    TEST_DEMO_SEED: import('cloudflare:test').D1Migration[]
    /** Every locale's UI texts as the demo data holds them. */
    TEST_DEMO_MESSAGES: Record<string, import('../contract/schemas').Messages>
    /** The `simple.limit` of each rate limiter of wrangler.toml, by binding name. */
    TEST_RATE_LIMITS: Record<string, number>
    /** wrangler.toml as deployed, for the settings no request can show (the platform's logs). */
    TEST_WRANGLER_TOML: string
    /** The console's demo staff (scripts/demo-seed.mjs DEMO_STAFF): one per role, with password and TOTP secret. */
    TEST_DEMO_STAFF: Array<{
      id: number
      role: import('../contract/staff-schemas').StaffRole
      email: string
      name: string
      password: string
      totp_secret: string
    }>
    /** tests/fixtures/brand-data as `npm run data:load` reads a folder: path within it → text. */
    TEST_BRAND_DATA: Record<string, string>
    /** '1' when every sitemap URL is to be rendered (`FULL_SITEMAP_WALK=1`), else one per page kind and market. */
    TEST_FULL_SITEMAP_WALK: string
    /** The mail queue wrangler.toml's consumer takes, for a test that means a mail to leave (MAIL_QUEUE is parked). */
    TEST_MAIL_QUEUE: Queue
    MAIL_API_KEY: string
    MAIL_WEBHOOK_SECRET: string
    PURGE_SECRET: string
    /** The requests' metrics dataset (src/ops/metrics.ts): a test hands in a recording one. */
    METRICS?: AnalyticsEngineDataset
    /** The payment settings a test may change (src/env.ts; vitest.config.ts names the test provider for staging). */
    PAYMENT_WEBHOOK_SECRET?: string
    PAYMENT_TEST_PROVIDER_ALLOWED?: string
    STRIPE_SECRET_KEY?: string
    STRIPE_API_URL?: string
    SESSION_SECRET: string
    WHISTLEBLOWER_KEY: string
    /** Unset in the tests' bindings: a test that rotates keys sets them (tests/integration/key-rotation.test.ts). */
    WHISTLEBLOWER_KEYS?: string
    SESSION_SECRET_PREVIOUS?: string
    /** The Worker's Access service token at the tests' stand-in backend (tests/fixtures/http-upstream.ts). */
    UPSTREAM_ACCESS_CLIENT_ID: string
    UPSTREAM_ACCESS_CLIENT_SECRET: string
  }
}

/** A file's text, as Vite imports it with `?raw` (scripts/reindex-search.sql in tests/integration/rows-read.test.ts). */
declare module '*?raw' {
  const text: string
  export default text
}
