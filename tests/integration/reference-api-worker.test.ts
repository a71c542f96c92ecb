import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import standalone from '../../reference-api/worker'

const ACCESS = { ACCESS_CLIENT_ID: 'test-only-access-client-id', ACCESS_CLIENT_SECRET: 'test-only-access-secret' }
const ACCESS_HEADERS = {
  'CF-Access-Client-Id': ACCESS.ACCESS_CLIENT_ID,
  'CF-Access-Client-Secret': ACCESS.ACCESS_CLIENT_SECRET,
}

/** One request to the reference API's own Worker (reference-api/worker.ts), with its bindings and `vars`. */
async function call(path: string, init: RequestInit = {}, vars: Record<string, string> = {}) {
  const ctx = createExecutionContext()
  const request = new Request(`http://127.0.0.1:8788${path}`, init)
  const response = await standalone.fetch(request as Parameters<typeof standalone.fetch>[0], { ...env, ...vars }, ctx)
  await waitOnExecutionContext(ctx)
  return response
}

describe('the reference API as a Worker of its own', () => {
  it('serves the contract over HTTP: the sites list, and its health without a token', async () => {
    expect((await call('/api/sites')).status).toBe(200)
    expect((await call('/_health', {}, ACCESS)).status).toBe(200)
  })

  it('stands in for Access: with a service token set, a call without it or with another secret answers 403', async () => {
    expect((await call('/api/sites', {}, ACCESS)).status).toBe(403)
    const wrong = { ...ACCESS_HEADERS, 'CF-Access-Client-Secret': 'not-the-secret' }
    expect((await call('/api/sites', { headers: wrong }, ACCESS)).status).toBe(403)
    expect((await call('/api/sites', { headers: ACCESS_HEADERS }, ACCESS)).status).toBe(200)
  })

  it("settles no payment without the Worker's service token set: POST api/payments/events answers 503", async () => {
    const post = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }
    expect((await call('/api/payments/events', post)).status).toBe(503)
    const withToken = await call('/api/payments/events', post, { UPSTREAM_SERVICE_TOKEN: 'test-only-token' })
    expect(withToken.status).toBe(401)
  })
})
