import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it, vi } from 'vitest'
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

  it("runs its own retention on its Cron Trigger: old submissions with their mails, reporters' mails, counts logged", async () => {
    const DAY = 24 * 60 * 60 * 1000
    const now = Date.now()
    const at = (days: number) => new Date(now - days * DAY).toISOString()
    for (const [reference, days] of [
      ['CT-STAL-0001', 31],
      ['CT-KEPT-0001', 29],
    ] as const) {
      await env.DB.prepare(
        `INSERT INTO form_submissions (reference, submission_key, kind, site, locale, email, fields, created_at)
         VALUES (?1, ?2, 'contact', 'it', 'it', 'old@example.com', '{}', ?3)`,
      )
        .bind(reference, `key-${reference}-0000000000000000`, at(days))
        .run()
    }
    await env.DB.prepare(
      "INSERT INTO outbox (recipient, subject, body, kind, created_at) VALUES ('stale-reporter@example.com', 's', 'b', 'whistleblower_news', ?1)",
    )
      .bind(at(31))
      .run()
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)))
    try {
      await standalone.scheduled(createScheduledController({ scheduledTime: now, cron: '17 3 * * *' }), {
        ...env,
        SUBMISSION_RETENTION_DAYS: '30',
      })
    } finally {
      vi.restoreAllMocks()
    }
    const left = await env.DB.prepare(
      "SELECT reference FROM form_submissions WHERE reference IN ('CT-STAL-0001', 'CT-KEPT-0001')",
    ).all<{ reference: string }>()
    expect(left.results.map((row) => row.reference)).toEqual(['CT-KEPT-0001'])
    const reporterMails = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM outbox WHERE recipient = 'stale-reporter@example.com'",
    ).first<{ n: number }>()
    expect(reporterMails?.n).toBe(0)
    expect(lines.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ event: 'retention', days: 30, submissions: 1, reporterMails: 1 }),
    )
  })
})
