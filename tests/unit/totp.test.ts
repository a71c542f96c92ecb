import { describe, expect, it } from 'vitest'
import { fromBase32, toBase32, totpAt, verifyTotp } from '../../reference-api/totp'

/** RFC 6238 Appendix B: the SHA-1 secret and its 8-digit codes. */
const RFC_SECRET = new TextEncoder().encode('12345678901234567890')
const RFC_VECTORS: Array<[seconds: number, code: string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
]

describe('TOTP (RFC 6238)', () => {
  it.each(RFC_VECTORS)("gives the RFC's code at %i s", async (seconds, code) => {
    expect(await totpAt(RFC_SECRET, seconds * 1000, { digits: 8 })).toBe(code)
  })

  it('reads and writes base32 secrets as authenticator apps do (RFC 4648)', () => {
    expect(toBase32(RFC_SECRET)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')
    expect(fromBase32('gezd gnbv gy3t qojq gezd gnbv gy3t qojq')).toEqual(RFC_SECRET)
    expect(fromBase32('not base32!')).toBeNull()
  })

  it('takes the code of now and of one step either side, and nothing further or malformed', async () => {
    const secret = toBase32(RFC_SECRET)
    const now = 1111111111 * 1000
    const at = (ms: number) => totpAt(RFC_SECRET, ms)
    expect(await verifyTotp(secret, await at(now), now)).toBe(true)
    expect(await verifyTotp(secret, await at(now - 30_000), now)).toBe(true)
    expect(await verifyTotp(secret, await at(now + 30_000), now)).toBe(true)
    expect(await verifyTotp(secret, await at(now - 90_000), now)).toBe(false)
    const code = await at(now)
    expect(await verifyTotp(secret, `${code.slice(0, 3)} ${code.slice(3)}`, now)).toBe(true)
    for (const typed of ['', '12345', '1234567', 'abcdef', `${code}0`])
      expect(await verifyTotp(secret, typed, now)).toBe(false)
    expect(await verifyTotp('short', code, now)).toBe(false)
  })
})
