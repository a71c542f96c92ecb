import { describe, expect, it } from 'vitest'
import { fromBase64 } from '../../src/crypto/digest'
import {
  newPassphrase,
  newReceiptCode,
  readPassphrase,
  readReceiptCode,
  receiptFor,
} from '../../src/whistleblower/receipt'
import { PASSPHRASE_FORMAT, RECEIPT_CODE_FORMAT } from '../../contract/whistleblower-schemas'
import { newReportKey, openBytes, openReportKey, openText, sealBytes, sealText } from '../../src/whistleblower/sealed'
import { isSealedRecipient, openRecipient, sealRecipient } from '../../src/whistleblower/sealed-recipient'
import { keyIdOf, withKeyId } from '../../src/whistleblower/keyring'
import { keyring } from '../fixtures/keyrings'

const SECRET = keyring({ WHISTLEBLOWER_KEY: 'test-whistleblower-key-not-for-production' })
const ANOTHER = keyring({ WHISTLEBLOWER_KEY: 'another-secret' })
const CANARY = 'The canary sang about the invoices of warehouse 7'

describe('a report sealed with its own key', () => {
  it('opens with its key unwrapped by the same secret, and never holds the text in the clear', async () => {
    const { key, wrapped } = await newReportKey(SECRET)
    const sealed = await sealText(key, CANARY)
    expect(atob(sealed)).not.toContain('canary')
    expect(sealed).not.toContain(CANARY)
    expect(await openText(await openReportKey(SECRET, wrapped), sealed)).toBe(CANARY)
  })

  it('seals the same text differently each time (a fresh IV)', async () => {
    const { key } = await newReportKey(SECRET)
    expect(await sealText(key, CANARY)).not.toBe(await sealText(key, CANARY))
  })

  it("refuses a key wrapped with another secret, an altered wrapped key, altered bytes and another report's key", async () => {
    const report = await newReportKey(SECRET)
    const other = await newReportKey(SECRET)
    await expect(openReportKey(ANOTHER, report.wrapped)).rejects.toThrow()
    const altered = fromBase64(keyIdOf(report.wrapped).value)
    altered[3] = (altered[3] as number) ^ 1
    await expect(openReportKey(SECRET, withKeyId('legacy', btoa(String.fromCharCode(...altered))))).rejects.toThrow()
    const bytes = await sealBytes(report.key, new TextEncoder().encode(CANARY))
    const tampered = bytes.slice()
    tampered[20] = (tampered[20] as number) ^ 1
    await expect(openBytes(report.key, tampered)).rejects.toThrow()
    await expect(openBytes(other.key, bytes)).rejects.toThrow()
  })

  it('seals attachments byte for byte', async () => {
    const { key } = await newReportKey(SECRET)
    const file = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 31 + 7) % 256)
    expect(await openBytes(key, await sealBytes(key, file))).toEqual(file)
  })
})

describe("a reporter's address sealed for the mail sender", () => {
  const ADDRESS = 'canary.reporter@example.com'

  it('opens with the same secret only, differs each time, and never holds the address in the clear', async () => {
    const sealed = await sealRecipient(SECRET, ADDRESS)
    expect(sealed).toMatch(/^sealed:v2:legacy:[A-Za-z0-9+/]+={0,2}$/)
    expect(isSealedRecipient(sealed)).toBe(true)
    expect(isSealedRecipient(ADDRESS)).toBe(false)
    expect(atob(sealed.slice('sealed:v2:legacy:'.length))).not.toContain('canary')
    expect(await sealRecipient(SECRET, ADDRESS)).not.toBe(sealed)
    expect(await openRecipient(SECRET, sealed)).toBe(ADDRESS)
    await expect(openRecipient(ANOTHER, sealed)).rejects.toThrow()
    await expect(
      openRecipient(SECRET, `${sealed.slice(0, 20)}${sealed[20] === 'A' ? 'B' : 'A'}${sealed.slice(21)}`),
    ).rejects.toThrow()
    await expect(openRecipient(SECRET, ADDRESS)).rejects.toThrow('not a sealed recipient')
  })

  it("uses a key of its own: no report's key opens it", async () => {
    const sealed = await sealRecipient(SECRET, ADDRESS)
    const { key } = await newReportKey(SECRET)
    await expect(openText(key, sealed.slice('sealed:v2:legacy:'.length))).rejects.toThrow()
  })
})

describe('the receipt', () => {
  it("gives a receipt code of 80 random bits and a passphrase of 120, grouped by four in Crockford's base32", () => {
    expect(newReceiptCode()).toMatch(/^WB-([0-9A-HJKMNP-TV-Z]{4}-){3}[0-9A-HJKMNP-TV-Z]{4}$/)
    expect(newPassphrase()).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){5}[0-9A-HJKMNP-TV-Z]{4}$/)
    expect(new Set(Array.from({ length: 50 }, newPassphrase)).size).toBe(50)
  })

  it('reads back what a person typed: any case, spaces or dashes, O for 0, I and L for 1', () => {
    expect(readReceiptCode('wb 0k7m 2q9x d4hn pt31')).toBe('WB-0K7M-2Q9X-D4HN-PT31')
    expect(readReceiptCode('OK7M2Q9XD4HNPT3L')).toBe('WB-0K7M-2Q9X-D4HN-PT31')
    // A code that itself starts with W and B, typed without its prefix or with it.
    expect(readReceiptCode('WB7M-2Q9X-D4HN-PT31')).toBe('WB-WB7M-2Q9X-D4HN-PT31')
    expect(readReceiptCode('WB-WB7M-2Q9X-D4HN-PT31')).toBe('WB-WB7M-2Q9X-D4HN-PT31')
    expect(readPassphrase('7kqm 2xdt 9hnp 3rs0 abcd efgh')).toBe('7KQM-2XDT-9HNP-3RS0-ABCD-EFGH')
    for (const typed of ['', 'WB-123', 'WB-0K7M-2Q9X-D4HN-PT3U', '7KQM-2XDT']) {
      expect(readReceiptCode(typed) ?? readPassphrase(typed)).toBeNull()
    }
  })

  it('derives the same receipt from the same submission key, another from another key or another secret', async () => {
    const key = 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9f'
    const receipt = await receiptFor(SECRET.newest.secret, key)
    expect(receipt.code).toMatch(RECEIPT_CODE_FORMAT)
    expect(receipt.passphrase).toMatch(PASSPHRASE_FORMAT)
    expect(await receiptFor(SECRET.newest.secret, key)).toEqual(receipt)
    const other = await receiptFor(SECRET.newest.secret, `${key.slice(0, -1)}g`)
    expect(other.code).not.toBe(receipt.code)
    expect(other.passphrase).not.toBe(receipt.passphrase)
    expect((await receiptFor('another-secret', key)).passphrase).not.toBe(receipt.passphrase)
    // Typed back as printed, it reads as itself.
    expect(readReceiptCode(receipt.code)).toBe(receipt.code)
    expect(readPassphrase(receipt.passphrase.toLowerCase().replace(/-/g, ' '))).toBe(receipt.passphrase)
  })

  it('spreads derived characters over the whole alphabet (no bias from the derivation)', async () => {
    const seen = new Set<string>()
    for (let i = 0; i < 40; i++)
      for (const char of (
        await receiptFor(SECRET.newest.secret, `submission-key-number-${i}-padding-xx`)
      ).passphrase.replace(/-/g, ''))
        seen.add(char)
    expect(seen.size).toBe(32)
  })
})
