import { describe, expect, it } from 'vitest'
import { missingSecrets, requiredSecrets } from '../../src/ops/required-secrets'

const names = (vars: object) => requiredSecrets(vars).map(({ name }) => name)

describe('the required secrets of a configuration', () => {
  it('are the session, operator, whistleblower and payment secrets for the embedded API with the test provider', () => {
    expect(names({ UPSTREAM_URL: '', PAYMENT_PROVIDER: 'test', MAIL_PROVIDER: 'record' })).toEqual([
      'SESSION_SECRET',
      'PURGE_SECRET',
      'WHISTLEBLOWER_KEYS',
      'PAYMENT_WEBHOOK_SECRET',
    ])
  })

  it("add Stripe's key, Resend's two and Turnstile's secret where the configuration names them", () => {
    expect(names({ PAYMENT_PROVIDER: 'stripe', MAIL_PROVIDER: 'resend', TURNSTILE_SITE_KEY: '0x4AAA' })).toEqual(
      expect.arrayContaining(['STRIPE_SECRET_KEY', 'MAIL_API_KEY', 'MAIL_WEBHOOK_SECRET', 'TURNSTILE_SECRET_KEY']),
    )
  })

  it("add the backend's credentials with an UPSTREAM_URL, its service token where it serves the shop, and no keyring where it serves the channel", () => {
    const everyArea = names({ UPSTREAM_URL: 'https://api.brand.example' })
    expect(everyArea).toEqual(
      expect.arrayContaining(['UPSTREAM_ACCESS_CLIENT_ID', 'UPSTREAM_ACCESS_CLIENT_SECRET', 'UPSTREAM_SERVICE_TOKEN']),
    )
    expect(everyArea).not.toContain('WHISTLEBLOWER_KEYS')
    const eightCalls = names({ UPSTREAM_URL: 'https://api.brand.example', UPSTREAM_AREAS: 'none' })
    expect(eightCalls).toContain('WHISTLEBLOWER_KEYS')
    expect(eightCalls).not.toContain('UPSTREAM_SERVICE_TOKEN')
  })

  it('are missing by name only, an alternative standing in (the legacy whistleblower key), an empty value missing', () => {
    const required = requiredSecrets({ MAIL_PROVIDER: 'resend' })
    expect(
      missingSecrets(required, {
        SESSION_SECRET: 's',
        PURGE_SECRET: ' ',
        WHISTLEBLOWER_KEY: 'legacy',
        PAYMENT_WEBHOOK_SECRET: 'w',
        MAIL_API_KEY: 'k',
      }),
    ).toEqual(['PURGE_SECRET', 'MAIL_WEBHOOK_SECRET'])
  })
})
