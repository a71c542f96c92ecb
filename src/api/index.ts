import { Hono } from 'hono'
import type { ApiEnv } from './context'
import { auth } from './resources/auth'
import { catalogue } from './resources/catalogue'
import { content } from './resources/content'
import { seo } from './resources/seo'
import { sites } from './resources/sites'
import { translations } from './resources/translations'

/**
 * The embedded reference API: the upstream contract of docs/api.md over D1. Called in-process by the upstream client
 * when `UPSTREAM_URL` is empty, and served under `/api/` to anyone.
 */
export const api = new Hono<ApiEnv>().basePath('/api')

api.use(async (c, next) => {
  const tenant = c.req.header('X-Tenant')?.toLowerCase() ?? ''
  const locale = c.req.header('X-Locale')?.toLowerCase() ?? ''
  c.set('tenant', /^[a-z]{2,3}$/.test(tenant) ? tenant : null)
  c.set('locale', /^[a-z]{2}$/.test(locale) ? locale : 'en')
  await next()
  c.header('Cache-Control', 'no-store')
})

api.route('/', auth)
api.route('/', sites)
api.route('/', translations)
api.route('/', catalogue)
api.route('/', seo)
api.route('/', content)

api.notFound((c) => c.json({ message: 'Not Found' }, 404))
api.onError((error, c) => {
  console.error(JSON.stringify({ level: 'error', source: 'api', path: new URL(c.req.url).pathname, error: error.name }))
  return c.json({ message: 'Server Error' }, 500)
})
