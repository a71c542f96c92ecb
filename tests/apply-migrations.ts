import { env } from 'cloudflare:workers'
import { expect } from 'vitest'

// Each integration file gets fresh storage: the schema, then the demo data (as `npm start` loads it locally). Unit
// files (tests/unit) never read D1 and start without it.
if (!/[\\/]tests[\\/]unit[\\/]/.test(expect.getState().testPath ?? '')) {
  const { applyD1Migrations } = await import('cloudflare:test')
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
  await applyD1Migrations(env.DB, env.TEST_DEMO_SEED, 'd1_demo_seed')
}
