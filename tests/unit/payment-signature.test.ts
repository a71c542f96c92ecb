import { describe, expect, it } from 'vitest'
import { signWebhook, verifyWebhookSignature, WEBHOOK_TOLERANCE_SECONDS } from '../../src/payments/signature'

const SECRET = 'whsec_test_secret'
const BODY = '{"id":"evt_1"}'
const T = 1763890000

describe('webhook signatures (Stripe\'s scheme: HMAC-SHA-256 of "{t}.{body}", hex)', () => {
  it('signs as `t={timestamp},v1={hex}`, the same bytes as any HMAC-SHA-256 of "{t}.{body}"', async () => {
    // node -e "crypto.createHmac('sha256','whsec_test_secret').update('1763890000.{\"id\":\"evt_1\"}').digest('hex')"
    expect(await signWebhook(SECRET, BODY, T)).toBe(
      `t=${T},v1=a425ab6bd047176378f3a7b9b3a373d1fc34b42c5ccee39f09557dc1a1bd75af`,
    )
  })

  it('accepts its own signature within the window, either side of now', async () => {
    const header = await signWebhook(SECRET, BODY, T)
    expect(await verifyWebhookSignature(SECRET, header, BODY, T)).toEqual({ ok: true, timestamp: T })
    expect((await verifyWebhookSignature(SECRET, header, BODY, T + WEBHOOK_TOLERANCE_SECONDS)).ok).toBe(true)
    expect((await verifyWebhookSignature(SECRET, header, BODY, T - WEBHOOK_TOLERANCE_SECONDS)).ok).toBe(true)
  })

  it('refuses another secret\'s signature and an altered body ("signature")', async () => {
    const forged = await signWebhook('another-secret', BODY, T)
    expect(await verifyWebhookSignature(SECRET, forged, BODY, T)).toEqual({ ok: false, reason: 'signature' })
    const header = await signWebhook(SECRET, BODY, T)
    expect(await verifyWebhookSignature(SECRET, header, '{"id":"evt_2"}', T)).toEqual({
      ok: false,
      reason: 'signature',
    })
    expect(await verifyWebhookSignature(SECRET, header, `${BODY} `, T)).toEqual({ ok: false, reason: 'signature' })
  })

  it('refuses a timestamp changed after signing ("signature"): the time is part of what is signed', async () => {
    const header = await signWebhook(SECRET, BODY, T - 3600)
    expect(await verifyWebhookSignature(SECRET, header.replace(`t=${T - 3600}`, `t=${T}`), BODY, T)).toEqual({
      ok: false,
      reason: 'signature',
    })
  })

  it('refuses a good signature more than 5 minutes old or ahead ("stale")', async () => {
    expect(await verifyWebhookSignature(SECRET, await signWebhook(SECRET, BODY, T - 301), BODY, T)).toEqual({
      ok: false,
      reason: 'stale',
    })
    expect(await verifyWebhookSignature(SECRET, await signWebhook(SECRET, BODY, T + 301), BODY, T)).toEqual({
      ok: false,
      reason: 'stale',
    })
  })

  it('says "signature", not "stale", of an old forged delivery: nothing is told about a signature it cannot check', async () => {
    expect(await verifyWebhookSignature(SECRET, await signWebhook('another-secret', BODY, T - 3600), BODY, T)).toEqual({
      ok: false,
      reason: 'signature',
    })
  })

  it('accepts any of several v1 signatures (a secret being rotated) and ignores other schemes (v0)', async () => {
    const good = (await signWebhook(SECRET, BODY, T)).split(',')[1]
    const old = (await signWebhook('old-secret', BODY, T)).split(',')[1]
    expect((await verifyWebhookSignature(SECRET, `t=${T},${old},${good},v0=abc`, BODY, T)).ok).toBe(true)
    expect((await verifyWebhookSignature(SECRET, `t=${T},${old},v0=abc`, BODY, T)).ok).toBe(false)
  })

  it.each([
    ['no header', null],
    ['an empty header', ''],
    ['no timestamp', `v1=${'a'.repeat(64)}`],
    ['no v1', `t=${T}`],
    ['two timestamps', `t=${T},t=${T},v1=${'a'.repeat(64)}`],
    ['a timestamp that is no number', `t=12e4,v1=${'a'.repeat(64)}`],
    ['a short signature', `t=${T},v1=abc`],
    ['upper-case hex', `t=${T},v1=${'A'.repeat(64)}`],
    ['a part without "="', `t=${T},v1,${'a'.repeat(64)}`],
    ['a part with two "="', `t=${T},v1=${'a'.repeat(64)}=`],
    ['too many parts', `t=${T}${`,v1=${'a'.repeat(64)}`.repeat(8)}`],
    ['an overlong header', `t=${T},x=${'y'.repeat(2000)},v1=${'a'.repeat(64)}`],
  ])('refuses %s as malformed', async (_what, header) => {
    expect(await verifyWebhookSignature(SECRET, header, BODY, T)).toEqual({ ok: false, reason: 'malformed' })
  })
})
