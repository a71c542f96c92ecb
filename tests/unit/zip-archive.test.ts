import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { expansionOf, zipEntries } from '../../src/forms/zip-archive'

const BOUNDS = { maxBytes: 20 * 1024 * 1024, maxEntries: 1000 }

/** A ZIP of the given files, deflated. */
const zipOf = (files: Record<string, Uint8Array>) =>
  new Uint8Array(zipSync(files, { level: 6 })) as Uint8Array<ArrayBuffer>

/** Where the end-of-directory record starts (no archive comment in these). */
const endOf = (bytes: Uint8Array) => bytes.length - 22

describe('the ZIP reader of CVs', () => {
  it('reads an honest archive and finds it within the bounds', () => {
    const entries = zipEntries(
      zipOf({
        'word/document.xml': new TextEncoder().encode('<w:document/>'.repeat(2000)),
        'a.txt': new Uint8Array(10),
      }),
    )
    expect(entries?.map((entry) => entry.name)).toEqual(['word/document.xml', 'a.txt'])
    expect(expansionOf(entries!, BOUNDS)).toBe('within')
  })

  it('takes an entry that expands beyond the size its directory declares for a forged archive, inflating no further', () => {
    const bytes = zipOf({ 'word/document.xml': new Uint8Array(8 * 1024 * 1024) })
    const entries = zipEntries(bytes)!
    expect(entries[0]!.size).toBe(8 * 1024 * 1024)
    expect(expansionOf(entries, BOUNDS)).toBe('within')
    // The directory says 1 KB (its uncompressed size at offset 24 of the entry's record).
    const directory = new DataView(bytes.buffer).getUint32(endOf(bytes) + 16, true)
    new DataView(bytes.buffer).setUint32(directory + 24, 1024, true)
    expect(expansionOf(zipEntries(bytes)!, BOUNDS)).toBe('damaged')
  })

  it('refuses a directory that holds more entries than it counts (a 16-bit count read short)', () => {
    const bytes = zipOf({ 'a.txt': new Uint8Array(10), 'b.txt': new Uint8Array(10) })
    new DataView(bytes.buffer).setUint16(endOf(bytes) + 10, 1, true)
    expect(zipEntries(bytes)).toBeNull()
  })

  it('takes deflated data that is no deflate data for a damaged archive', () => {
    const bytes = zipOf({ 'word/document.xml': new TextEncoder().encode('<w:document/>'.repeat(2000)) })
    const entries = zipEntries(bytes)!
    entries[0]!.stored.fill(0xff)
    expect(expansionOf(entries, BOUNDS)).toBe('damaged')
  })
})
