import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import { staffAddition } from '../../scripts/staff/statements'
import { demoStaff, forgetUsedCode, totpCode } from '../fixtures/console'

const DEPLOYED = 'https://www.aurora-cycles.com'

/** A login call to the reference API in-process, on a deployment served at `origin`. */
const login = (path: string, body: object, origin: string) =>
  api.request(
    `/api/${path}`,
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
    { ...env, PUBLIC_ORIGIN: origin },
  )

const CUSTOMER = { email: 'customer@example.com', password: 'Demo-Rider-2026!' }

describe("the demo's accounts", () => {
  it('sign in on this machine and under the testing name', async () => {
    expect((await login('auth/login', CUSTOMER, 'http://127.0.0.1:8787')).status).toBe(200)
    expect((await login('auth/login', CUSTOMER, 'https://site.test')).status).toBe(200)
  })

  it('are refused on a deployment, as wrong credentials are, customer and staff alike', async () => {
    const customer = await login('auth/login', CUSTOMER, DEPLOYED)
    expect(customer.status).toBe(422)
    expect(await customer.json()).toEqual({ message: 'These credentials do not match our records.' })
    await forgetUsedCode('editor')
    const member = demoStaff('editor')
    const code = await totpCode(member.totp_secret)
    const staff = await login('staff/login', { email: member.email, password: member.password, code }, DEPLOYED)
    expect(staff.status).toBe(422)
  })

  it('leave a member added by `npm run staff` signing in on a deployment with the printed TOTP secret', async () => {
    const { sql, secret, otpauth } = await staffAddition({
      email: 'nora@aurora-cycles.com',
      name: 'Nora Quinn',
      role: 'case_handler',
      password: 'A-Long-Staff-Password-2026',
    })
    expect(otpauth).toContain(`secret=${secret}`)
    expect(sql).not.toContain('A-Long-Staff-Password-2026')
    await env.DB.exec(sql.replaceAll('\n', ' '))
    const code = await totpCode(secret)
    const answer = await login(
      'staff/login',
      { email: 'nora@aurora-cycles.com', password: 'A-Long-Staff-Password-2026', code },
      DEPLOYED,
    )
    expect(answer.status).toBe(200)
  })
})
