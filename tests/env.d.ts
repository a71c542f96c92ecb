declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[]
    TEST_DEMO_SEED: import('cloudflare:test').D1Migration[]
    /** Every locale's UI texts as the demo data holds them. */
    TEST_DEMO_MESSAGES: Record<string, import('../src/upstream/schemas').Messages>
    PURGE_SECRET: string
    SESSION_SECRET: string
  }
}
