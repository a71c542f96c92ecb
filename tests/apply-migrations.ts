import { applyD1Migrations } from 'cloudflare:test'
import { env } from 'cloudflare:workers'

// Each test file gets fresh storage: the schema, then the demo data (as `npm start` loads it locally).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
await applyD1Migrations(env.DB, env.TEST_DEMO_SEED, 'd1_demo_seed')
